import { type RefObject, useEffect } from 'react';

/** Runs `run` when the browser has nothing else to do (a short timer where it cannot say). */
function whenIdle(run: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 2_000 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(run, 100);
  return () => clearTimeout(id);
}

/**
 * Once the page has loaded, takes `className` (a `content-visibility: auto` rule) off the
 * container's children one at a time, each when the browser is idle: the first screen is painted
 * without laying out what is below it, and afterwards the whole page is laid out as it is, so
 * that its scrollbar stops changing as sections come near, and a full-page capture, a print or
 * the page's text hold every section.
 */
export function useLaidOutWhenIdle(container: RefObject<HTMLElement | null>, className: string) {
  useEffect(() => {
    let cancel = () => {};
    const next = () => {
      const child = container.current?.querySelector(`:scope > .${className}`);
      if (!child) return;
      cancel = whenIdle(() => {
        child.classList.remove(className);
        next();
      });
    };
    if (document.readyState === 'complete') next();
    else window.addEventListener('load', next, { once: true });
    return () => {
      window.removeEventListener('load', next);
      cancel();
    };
  }, [container, className]);
}
