import { render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { PageHeading } from './page-heading';

describe("a dashboard screen's heading", () => {
  it('takes the focus when the screen keeps a reference to its title', () => {
    const heading = createRef<HTMLHeadingElement>();
    render(
      <PageHeading
        eyebrow="Administration"
        title="All Users: 3"
        headingId="users"
        headingRef={heading}
      />,
    );
    const title = screen.getByRole('heading', { level: 1, name: 'All Users: 3' });
    expect(title).toHaveAttribute('id', 'users');
    heading.current?.focus();
    expect(title).toHaveFocus();
  });

  it('is not focusable otherwise, and shows its action beside the title', () => {
    render(
      <PageHeading
        eyebrow="Administration"
        title="Add a New Doctor"
        action={<a href="/doctors">Manage</a>}
      />,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Add a New Doctor' })).not.toHaveAttribute(
      'tabindex',
    );
    expect(screen.getByText('Administration')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage' })).toBeInTheDocument();
  });

  it('shows what follows the title inside its block', () => {
    const { container } = render(
      <PageHeading eyebrow="Dashboard" title="Schedule" className="print:hidden">
        <p>Monday, Jan 5, 2030</p>
      </PageHeading>,
    );
    const block = container.firstElementChild;
    expect(block).toHaveClass('print:hidden');
    expect(block).toHaveTextContent('DashboardScheduleMonday, Jan 5, 2030');
  });
});
