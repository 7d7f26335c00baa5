/** A soft circle of colour behind a banner's content; `className` places, sizes and tints it. */
export function Glow({ className }: { className: string }) {
  return <div aria-hidden="true" className={`pointer-events-none absolute ${className}`} />;
}
