/** Below Tailwind's md breakpoint the day's appointments sit under the calendar, out of sight. */
const NARROW_SCREEN = '(max-width: 767px)';
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * On a narrow screen, scrolls `element` to the top of the view (below the sticky navigation bar:
 * its scroll margin), smoothly unless the visitor asked for less motion. Wider screens show it
 * beside or just under the calendar already.
 */
export function revealOnNarrowScreen(element: HTMLElement | null): void {
  if (!element || !window.matchMedia?.(NARROW_SCREEN).matches) return;
  const still = window.matchMedia(REDUCED_MOTION).matches;
  element.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
}
