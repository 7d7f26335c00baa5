/** The clinic's tooth mark, drawn inline so it takes the colour of the text around it. */
export function LogoMark({ className = '' }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" focusable="false" className={className}>
      <rect width="64" height="64" rx="16" fill="currentColor" />
      <path
        d="M21 14c-6 0-10 5-10 12 0 9 4 13 6 24 1 4 5 4 6 0l3-11c1-3 5-3 6 0l3 11c1 4 5 4 6 0 2-11 6-15 6-24 0-7-4-12-10-12-5 0-6 3-8 3s-3-3-8-3z"
        fill="#fff"
        transform="translate(3 1)"
      />
    </svg>
  );
}
