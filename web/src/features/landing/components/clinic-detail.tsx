import type { ReactNode } from 'react';

/** How a detail looks: on the light visit card, or on the contact section's coloured panel. */
const LOOKS = {
  card: { row: 'flex gap-3', icon: 'text-primary', value: '' },
  panel: {
    row: 'flex gap-4',
    icon: 'grid size-11 shrink-0 place-items-center rounded-xl bg-white/15',
    value: 'min-w-0 self-center break-words text-white',
  },
} as const;

/**
 * One of the clinic's details in a `<dl>` (phone, email, address, opening hours): its icon,
 * named for assistive technology by `label`, then the detail itself.
 */
export function ClinicDetail({
  look,
  icon,
  label,
  className = '',
  children,
}: {
  look: keyof typeof LOOKS;
  icon: ReactNode;
  label: string;
  /** Classes added to the detail's own. */
  className?: string;
  children: ReactNode;
}) {
  const classes = LOOKS[look];
  return (
    <div className={classes.row}>
      <dt className={classes.icon}>
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd className={`${classes.value} ${className}`.trim() || undefined}>{children}</dd>
    </div>
  );
}
