import { type IsoDate, SCHEDULE_MAX_DAYS, scheduleQuerySchema } from '@doctors-portal/contract';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { ErrorAlert } from '../../../components/error-alert';
import { Panel } from '../../../components/panel';
import { ApiError, SessionEndedError } from '../../../lib/api-client';
import { downloadScheduleCsv } from '../api/export-schedule';

/** One end of the range: a labelled date input. */
function RangeDate({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <label htmlFor={id} className="flex flex-col gap-1 text-sm font-medium">
      {label}
      <input
        id={id}
        type="date"
        className="input input-sm w-40"
        value={value}
        required
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

/**
 * The CSV export: a range of up to 31 days (the view's own days to begin with) and the
 * treatment shown, downloaded as the server writes it.
 */
export function ExportForm({
  from: viewFrom,
  to: viewTo,
  treatmentId,
  note,
}: {
  from: IsoDate;
  to: IsoDate;
  treatmentId: string;
  /** What the file leaves out of the screen's filters, if anything. */
  note?: string;
}) {
  const [from, setFrom] = useState<string>(viewFrom);
  const [to, setTo] = useState<string>(viewTo);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  // The view moved: so does the range offered.
  useEffect(() => {
    setFrom(viewFrom);
    setTo(viewTo);
  }, [viewFrom, viewTo]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = scheduleQuerySchema.safeParse({ from, to });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Pick a start and an end date.');
      return;
    }
    setError(null);
    setSending(true);
    try {
      const name = await downloadScheduleCsv({ ...parsed.data, treatmentId });
      toast.success(`Downloaded ${name}.`);
    } catch (failure) {
      if (!(failure instanceof SessionEndedError)) {
        setError(failure instanceof ApiError ? failure.message : 'The export could not be made.');
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <Panel title="Export as CSV" className="print:hidden">
      <p className="mt-1 text-sm text-muted">
        {`Up to ${SCHEDULE_MAX_DAYS} days of bookings, for a spreadsheet.`}
      </p>
      {note ? <p className="mt-1 text-sm text-muted">{note}</p> : null}
      <form
        className="mt-3 flex flex-wrap items-end gap-3"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <RangeDate label="From" value={from} onChange={setFrom} />
        <RangeDate label="To" value={to} onChange={setTo} />
        <button type="submit" className="btn btn-primary btn-sm" disabled={sending}>
          {sending ? (
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
          ) : null}
          Download CSV
        </button>
      </form>
      {error ? (
        <div className="mt-3">
          <ErrorAlert>{error}</ErrorAlert>
        </div>
      ) : null}
    </Panel>
  );
}
