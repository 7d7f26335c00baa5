import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CardList } from './card-list';

describe('a list of cards', () => {
  it('is named by the screen title and marked busy, dimmed, while the next page loads', () => {
    const { rerender } = render(
      <>
        <h1 id="title">Messages</h1>
        <CardList labelledBy="title" stale={false}>
          <li>First</li>
        </CardList>
      </>,
    );
    const list = screen.getByRole('list', { name: 'Messages' });
    expect(list.tagName).toBe('UL');
    expect(list).not.toHaveAttribute('aria-busy');
    expect(list).not.toHaveClass('opacity-60');

    rerender(
      <>
        <h1 id="title">Audit log</h1>
        <CardList ordered labelledBy="title" stale>
          <li>Newest</li>
        </CardList>
      </>,
    );
    const ordered = screen.getByRole('list', { name: 'Audit log' });
    expect(ordered.tagName).toBe('OL');
    expect(ordered).toHaveAttribute('aria-busy', 'true');
    expect(ordered).toHaveClass('opacity-60');
  });
});
