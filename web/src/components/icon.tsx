import type { SVGProps } from 'react';

/**
 * The frame of every line icon in the portal: a 24-unit grid drawn with the text colour, and
 * decorative (hidden from assistive technology: what it means is in the text beside it). The
 * icons themselves are its children: paths, circles and rectangles.
 */
export function Icon({
  className = 'size-5',
  strokeWidth = 2,
  children,
  ...svg
}: SVGProps<SVGSVGElement>) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
      {...svg}
    >
      {children}
    </svg>
  );
}
