/**
 * A banner's picture, as wide as its box: its own `size` in pixels (width, height) is given so
 * that nothing moves as it arrives. The first screen's largest (`priority`) is fetched first; the
 * others (a kilobyte or two each) after everything else, but at once rather than lazily, so that
 * the page is whole when it is captured or printed without being scrolled through.
 */
export function Illustration({
  src,
  size: [width, height],
  alt,
  priority = false,
  className = '',
}: {
  src: string;
  size: readonly [width: number, height: number];
  alt: string;
  priority?: boolean;
  className?: string;
}) {
  return (
    <img
      src={src}
      width={width}
      height={height}
      alt={alt}
      fetchPriority={priority ? 'high' : 'low'}
      decoding={priority ? undefined : 'async'}
      className={`h-auto w-full ${className}`}
    />
  );
}
