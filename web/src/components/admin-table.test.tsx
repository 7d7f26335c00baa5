import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AdminRow, AdminTable, EmailCell } from './admin-table';

describe('an admin table', () => {
  it('names its columns, a hidden one read out but not shown', () => {
    render(
      <>
        <h1 id="title">Doctors</h1>
        <AdminTable labelledBy="title" columns={[{ hidden: 'Avatar' }, 'Name', 'Email']}>
          <AdminRow id="row-1">
            <td />
            <th scope="row">Ana Lee</th>
            <EmailCell address="ana@clinic.test" />
          </AdminRow>
        </AdminTable>
      </>,
    );
    expect(screen.getByRole('region', { name: 'Doctors' })).toBeInTheDocument();
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Avatar', 'Name', 'Email']);
    expect(within(headers[0] as HTMLElement).getByText('Avatar')).toHaveClass('sr-only');
    const row = screen.getByRole('row', { name: /Ana Lee/ });
    expect(row).toHaveAttribute('id', 'row-1');
    // A card labels the email's line 'Email'.
    expect(row.querySelector('td[data-label="Email"]')).toHaveTextContent('ana@clinic.test');
  });
});
