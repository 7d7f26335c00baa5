import { cleanup, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLaidOutWhenIdle } from './use-laid-out-when-idle';

function Page() {
  const below = useRef<HTMLDivElement>(null);
  useLaidOutWhenIdle(below, 'later');
  return (
    <div ref={below}>
      {['one', 'two', 'three'].map((name) => (
        <section key={name} aria-label={name} className="later">
          {name}
        </section>
      ))}
    </div>
  );
}

/** The idle callbacks the page asked for, run by the test one at a time. */
let idle: Array<() => void> = [];
beforeEach(() => {
  idle = [];
  vi.stubGlobal('requestIdleCallback', (run: () => void) => idle.push(run));
  vi.stubGlobal('cancelIdleCallback', (id: number) => {
    idle[id - 1] = () => {};
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const deferred = (container: HTMLElement) =>
  [...container.querySelectorAll('section')].map((section) => section.classList.contains('later'));

describe('useLaidOutWhenIdle', () => {
  it('lets the sections go one at a time, each when the browser is idle', () => {
    const { container } = render(<Page />);
    expect(deferred(container)).toEqual([true, true, true]);
    idle.shift()?.();
    expect(deferred(container)).toEqual([false, true, true]);
    idle.shift()?.();
    idle.shift()?.();
    expect(deferred(container)).toEqual([false, false, false]);
    expect(idle).toEqual([]);
  });

  it('waits for the page to load', () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    const { container } = render(<Page />);
    expect(idle).toHaveLength(0);
    window.dispatchEvent(new Event('load'));
    expect(idle).toHaveLength(1);
    idle.shift()?.();
    expect(deferred(container)).toEqual([false, true, true]);
  });

  it('stops when the page goes away', () => {
    const { container, unmount } = render(<Page />);
    const section = container.querySelector('section');
    unmount();
    idle.forEach((run) => {
      run();
    });
    expect(section?.classList.contains('later')).toBe(true);
  });
});
