import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False in the server's prerender and while the browser hydrates it, true from the render after
 * (and at once in a page the browser renders itself). What only the browser knows (today's
 * date, its time zone) waits for it, so the first render draws what the server drew.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
