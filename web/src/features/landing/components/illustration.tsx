/**
 * A banner's picture, as wide as its box: its own `size` in pixels (width, height) is given so
 * that nothing moves as it arrives, and it loads lazily unless it is the first screen's largest
 * (`priority`).
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
      loading={priority ? undefined : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      className={`h-auto w-full ${className}`}
    />
  );
}
