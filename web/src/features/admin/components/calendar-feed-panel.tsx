import type { Doctor } from '@doctors-portal/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { useConfirm } from '../../../components/confirm-dialog';
import { Panel } from '../../../components/panel';
import { ButtonSpinner } from '../../../components/spinner';
import { reasonOf, SessionEndedError } from '../../../lib/api-client';
import { useCreateCalendarFeed } from '../api/create-calendar-feed';
import { useStopCalendarFeed } from '../api/stop-calendar-feed';

/**
 * What this screen knows of a doctor's feed: 'on' after it made a link, 'off' after it stopped
 * the feed, 'unknown' otherwise (the server never says whether a feed exists).
 */
export type FeedState = 'on' | 'off' | 'unknown';

export interface CalendarFeedPanelProps {
  doctor: Doctor;
  state: FeedState;
  /** After a link was made ('on') or the feed stopped ('off'). */
  onStateChange: (state: FeedState) => void;
  onClose: () => void;
}

/** Puts the link on the clipboard; without a clipboard, selects it for the person to copy. */
async function copyLink(url: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(url);
      return true;
    }
  } catch {
    // Refused (no permission, or not a secure page): the selection below is the way.
  }
  field?.focus();
  field?.select();
  try {
    return typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    return false;
  }
}

/**
 * 'Calendar feed for {name}': makes the doctor's secret iCalendar feed link (Google Calendar,
 * Outlook and Apple Calendar subscribe to it), shows it once to copy, and stops the feed. A new
 * link stops the old one, so making one asks first unless this screen just stopped the feed.
 */
export function CalendarFeedPanel({
  doctor,
  state,
  onStateChange,
  onClose,
}: CalendarFeedPanelProps) {
  const confirm = useConfirm();
  const create = useCreateCalendarFeed();
  const stop = useStopCalendarFeed();
  const fieldId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const busy = create.isPending || stop.isPending;

  useEffect(() => {
    heading.current?.focus();
  }, []);

  // A new link takes the focus, selected: its label and 'shown only once' are read out with it.
  useEffect(() => {
    if (url) field.current?.focus();
  }, [url]);

  const makeLink = async () => {
    if (state !== 'off') {
      const confirmed = await confirm({
        message:
          state === 'on'
            ? `Make a new calendar feed link for ${doctor.name}? The link made before stops working at once.`
            : `Make a new calendar feed link for ${doctor.name}? If they already have one, it stops working at once.`,
        confirmLabel: 'Create feed link',
      });
      if (!confirmed) return;
    }
    try {
      const feed = await create.mutateAsync(doctor._id);
      setUrl(feed.url);
      onStateChange('on');
      toast.success(`Made a new calendar feed link for ${doctor.name}.`);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(
        reasonOf(error, `The calendar feed link for ${doctor.name} could not be made. Try again.`),
      );
    }
  };

  const stopFeed = async () => {
    const confirmed = await confirm({
      message: `Stop the calendar feed for ${doctor.name}? Calendars subscribed to its link no longer update.`,
      confirmLabel: 'Stop the feed',
      danger: true,
    });
    if (!confirmed) return;
    try {
      await stop.mutateAsync(doctor._id);
      setUrl(null);
      onStateChange('off');
      toast.success(`Stopped the calendar feed for ${doctor.name}.`);
      heading.current?.focus();
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(
        reasonOf(error, `The calendar feed for ${doctor.name} could not be stopped. Try again.`),
      );
    }
  };

  const copy = async () => {
    if (!url) return;
    if (await copyLink(url, field.current)) toast.success('Link copied.');
    else toast.info('The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.');
  };

  return (
    <Panel title={`Calendar feed for ${doctor.name}`} headingRef={heading}>
      <p className="mt-1 text-sm text-muted">
        Google Calendar, Outlook and Apple Calendar can subscribe to the feed link. It lists the
        doctor’s visits with the patient’s first name and treatment only.
      </p>

      {url ? (
        <div className="mt-5 flex flex-col gap-1.5">
          <label htmlFor={fieldId} className="text-sm font-medium">
            {`Feed link for ${doctor.name}`}
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              ref={field}
              id={fieldId}
              type="text"
              readOnly
              value={url}
              aria-describedby={`${fieldId}-hint`}
              className="input w-full min-w-0 font-mono text-sm sm:flex-1"
              onFocus={(event) => event.currentTarget.select()}
            />
            <button
              type="button"
              className="btn btn-primary"
              aria-label={`Copy link for ${doctor.name}`}
              onClick={() => void copy()}
            >
              Copy link
            </button>
          </div>
          <p id={`${fieldId}-hint`} className="text-sm font-medium">
            Copy it now: it is shown only once.
          </p>
        </div>
      ) : (
        <p className="mt-3 text-sm">
          {state === 'off'
            ? `${doctor.name} has no calendar feed now. A new link is shown only once, right after it is made.`
            : `If ${doctor.name} already has a feed link, a new one stops the old link at once. A new link is shown only once, right after it is made.`}
        </p>
      )}

      <div className="mt-5 flex flex-wrap justify-end gap-3 border-t border-base-300 pt-5">
        <button
          type="button"
          className="btn btn-ghost"
          aria-label={`Close calendar feed for ${doctor.name}`}
          onClick={onClose}
          disabled={busy}
        >
          Close
        </button>
        <button
          type="button"
          className="btn btn-outline btn-error"
          aria-label={`Stop the feed for ${doctor.name}`}
          onClick={() => void stopFeed()}
          disabled={busy}
        >
          {stop.isPending ? <ButtonSpinner /> : null}
          Stop the feed
        </button>
        <button
          type="button"
          className="btn btn-primary"
          aria-label={`Create feed link for ${doctor.name}`}
          onClick={() => void makeLink()}
          disabled={busy}
        >
          {create.isPending ? <ButtonSpinner /> : null}
          Create feed link
        </button>
      </div>
    </Panel>
  );
}
