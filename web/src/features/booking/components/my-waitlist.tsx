import { formatMediumDate, type WaitlistEntry } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { toast } from 'react-toastify/unstyled';
import { useConfirm } from '../../../components/confirm-dialog';
import { reasonOf, SessionEndedError } from '../../../lib/api-client';
import { myWaitlistQuery, useLeaveWaitlist } from '../api/waitlist';

/** 'Deep Scaling on Jan 5, 2030': how an entry is named in its row, question and toast. */
const entryName = (entry: WaitlistEntry) => `${entry.treatment} on ${formatMediumDate(entry.date)}`;

/**
 * My Appointments' waitlist: the treatments and days the patient waits for a free slot of, each
 * with 'Leave' (asked first). Nothing shows while there are none, nor when the list cannot be read.
 * Once an entry is left (its row, or the whole list, gone), `onLeft` places the focus.
 */
export function MyWaitlist({ onLeft }: { onLeft?: () => void } = {}) {
  const headingId = useId();
  const confirm = useConfirm();
  const entries = useQuery(myWaitlistQuery);
  const leaving = useLeaveWaitlist();
  const list = entries.data ?? [];
  if (list.length === 0) return null;

  const leave = async (entry: WaitlistEntry) => {
    const confirmed = await confirm({
      message: `Leave the waitlist for ${entryName(entry)}?`,
      confirmLabel: 'Leave the waitlist',
      cancelLabel: 'Stay on it',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await leaving.mutateAsync(entry.id);
      toast.success(`You left the waitlist for ${entryName(entry)}.`);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(reasonOf(error, 'You could not leave the waitlist.'));
    }
    onLeft?.();
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="heading-3 text-neutral">
        Your waitlist
      </h2>
      <p className="text-sm text-muted">
        We email you when a slot of these frees up; the first to book it has it.
      </p>
      <ul className="flex flex-col gap-2">
        {list.map((entry) => (
          <li
            key={entry.id}
            className="flex flex-wrap items-center justify-between gap-3 rounded-box border border-base-300 bg-base-100 px-4 py-3"
          >
            <span className="font-medium">{entryName(entry)}</span>
            <button
              type="button"
              className="btn btn-sm btn-outline btn-error"
              disabled={leaving.isPending && leaving.variables === entry.id}
              aria-label={`Leave the waitlist for ${entryName(entry)}`}
              onClick={() => void leave(entry)}
            >
              Leave
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
