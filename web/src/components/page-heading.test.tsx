import { render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, it } from 'vitest';
import { PageHeading, useScreenHeading } from './page-heading';

/** A screen that names its list by its title and moves the focus to it for the next page. */
function AuditScreen() {
  const heading = useScreenHeading();
  return (
    <>
      <PageHeading eyebrow="Administration" title="Audit log" heading={heading} />
      <ol aria-labelledby={heading.id} />
      <button type="button" onClick={() => heading.ref.current?.focus()}>
        Next page
      </button>
    </>
  );
}

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

  it("takes its id and focus from the screen's heading hook", () => {
    render(<AuditScreen />);
    expect(screen.getByRole('list', { name: 'Audit log' })).toBeInTheDocument();
    screen.getByRole('button', { name: 'Next page' }).click();
    expect(screen.getByRole('heading', { level: 1, name: 'Audit log' })).toHaveFocus();
  });

  it('keeps its title, and the focus on it, when its action goes or comes back', () => {
    const heading = createRef<HTMLHeadingElement>();
    const props = { eyebrow: 'Administration', title: 'Treatments', headingRef: heading };
    const action = <button type="button">New treatment</button>;
    const { rerender } = render(<PageHeading {...props} />);
    heading.current?.focus();
    // The form closes and the screen's action comes back, as after a save.
    rerender(<PageHeading {...props} action={action} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Treatments' })).toHaveFocus();
    rerender(<PageHeading {...props} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Treatments' })).toHaveFocus();
  });

  it('follows its title with the count once the screen knows it', () => {
    const { rerender } = render(<PageHeading eyebrow="Administration" title="All Users" />);
    expect(screen.getByRole('heading', { level: 1, name: 'All Users' })).toBeInTheDocument();
    rerender(<PageHeading eyebrow="Administration" title="All Users" count={0} />);
    expect(screen.getByRole('heading', { level: 1, name: 'All Users: 0' })).toBeInTheDocument();
    rerender(<PageHeading eyebrow="Administration" title="Messages" count="2 unread" />);
    expect(
      screen.getByRole('heading', { level: 1, name: 'Messages: 2 unread' }),
    ).toBeInTheDocument();
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
    render(
      <PageHeading eyebrow="Dashboard" title="Schedule" className="print:hidden">
        <p>Monday, Jan 5, 2030</p>
      </PageHeading>,
    );
    const block = screen.getByText('Dashboard').parentElement;
    expect(block).toHaveClass('print:hidden');
    expect(block).toHaveTextContent('DashboardScheduleMonday, Jan 5, 2030');
  });
});
