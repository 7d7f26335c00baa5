import { todayIn } from '@doctors-portal/contract';
import { act, render, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useToday } from './use-today';

const ZONE = 'Pacific/Auckland';

function Today({ timeZone, seen }: { timeZone?: string; seen?: (today: string | null) => void }) {
  const today = useToday(timeZone);
  seen?.(today);
  return <p>{today ?? 'not yet'}</p>;
}

afterEach(() => {
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('useToday', () => {
  it('knows today at once in a page the browser draws itself', () => {
    const seen: Array<string | null> = [];
    render(<Today timeZone={ZONE} seen={(today) => seen.push(today)} />);
    expect(seen[0]).toBe(todayIn(ZONE));
    expect(screen.getByText(todayIn(ZONE))).toBeVisible();
  });

  it('waits for the time zone', () => {
    render(<Today />);
    expect(screen.getByText('not yet')).toBeVisible();
  });

  it('after a hydration, works today out in a task of its own', async () => {
    vi.useFakeTimers();
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Today timeZone={ZONE} />);
    document.body.append(container);
    expect(container.textContent).toBe('not yet');

    const seen: Array<string | null> = [];
    const errors = vi.spyOn(console, 'error');
    await act(async () => {
      hydrateRoot(container, <Today timeZone={ZONE} seen={(today) => seen.push(today)} />);
    });
    // The hydration and the render after it draw what the server drew.
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((today) => today === null)).toBe(true);
    expect(container.textContent).toBe('not yet');

    await act(async () => {
      vi.runOnlyPendingTimers();
    });
    expect(container.textContent).toBe(todayIn(ZONE));
    expect(errors).not.toHaveBeenCalled();
  });
});
