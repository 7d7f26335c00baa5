import { CheckIcon } from './icons';

/** How a list of ticked points looks: a light row under the hero, or the care section's column. */
const LOOKS = {
  hero: {
    list: 'mt-10 grid gap-3 text-[0.95rem] text-muted sm:flex sm:flex-wrap sm:gap-x-6',
    item: 'flex items-center gap-2',
    tick: 'grid size-6 place-items-center rounded-full bg-primary/10 text-primary',
  },
  care: {
    list: 'mt-7 space-y-3.5',
    item: 'flex items-start gap-3',
    tick: 'mt-0.5 grid size-6 shrink-0 place-items-center rounded-full bg-primary text-primary-content',
  },
} as const;

/** What the clinic promises, one ticked point each. */
export function CheckList({
  points,
  look,
}: {
  points: readonly string[];
  look: keyof typeof LOOKS;
}) {
  const classes = LOOKS[look];
  return (
    <ul className={classes.list}>
      {points.map((point) => (
        <li key={point} className={classes.item}>
          <span className={classes.tick}>
            <CheckIcon className="size-4" />
          </span>
          <span>{point}</span>
        </li>
      ))}
    </ul>
  );
}
