import { type RefObject, useEffect, useRef, useState } from 'react';

/**
 * Whether the element has come near the viewport (within `rootMargin`) at least once. Below-the-
 * fold parts that are costly to load or render wait for it, so they stay out of the page's
 * first seconds; once true it stays true. `initially` skips the wait (content at the top).
 */
export function useNearViewport<T extends Element>(
  initially = false,
  rootMargin = '600px 0px',
): [boolean, RefObject<T | null>] {
  const ref = useRef<T>(null);
  // Not `near` in the server's prerender, so that hydration starts from what the server drew.
  const [near, setNear] = useState(initially);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, rootMargin]);
  return [near, ref];
}
