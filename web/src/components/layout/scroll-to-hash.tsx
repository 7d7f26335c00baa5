import { useEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const MAX_WAIT_MS = 2000;

function prefersReducedMotion() {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * React Router leaves scrolling to the app. This brings anchored sections (/#review,
 * /#who-we-are) into view whether the link is followed on the home page itself or from another
 * page, and starts every other new page at the top. Back and forward keep the browser's position.
 */
export function ScrollToHash() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const previousPath = useRef<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key marks a new navigation, also to the same URL.
  useEffect(() => {
    const samePage = previousPath.current === location.pathname;
    previousPath.current = location.pathname;

    const id = decodeURIComponent(location.hash.slice(1));
    if (!id) {
      if (navigationType !== 'POP' && !samePage) window.scrollTo({ top: 0, left: 0 });
      return;
    }

    // The target may render a moment later (a lazily loaded page): look for it until it appears.
    let frame = 0;
    const started = performance.now();
    const seek = () => {
      const target = document.getElementById(id);
      if (target) {
        const smooth = samePage && !prefersReducedMotion();
        target.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
        return;
      }
      if (performance.now() - started < MAX_WAIT_MS) frame = requestAnimationFrame(seek);
    };
    seek();
    return () => cancelAnimationFrame(frame);
  }, [location.key, location.pathname, location.hash, navigationType]);

  return null;
}
