import type { AuditEntry } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useClinicTimeZone } from '../../../api/clinic';
import { CardList } from '../../../components/card-list';
import { Field, SelectField } from '../../../components/form-field';
import { PageHeading, useScreenHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { auditQuery } from '../api/get-audit';
import {
  ACTION_CHOICES,
  actionName,
  actorOf,
  changesOf,
  filterFrom,
  momentIn,
  querySearchOf,
  rangeProblem,
  subjectOf,
} from '../audit';

const loadingEntries = <TableLoading label="Loading the audit log…" />;

/** One change a person or the server made: what, when, who, to what, and the fields it changed. */
function Entry({ entry, timeZone }: { entry: AuditEntry; timeZone: string }) {
  const actor = actorOf(entry);
  const changes = changesOf(entry, timeZone);
  return (
    <li className="rounded-box border border-base-300 bg-base-100 p-4 shadow-soft">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <p className="font-semibold text-neutral">
          {actionName(entry.action)}
          <span className="ml-2 text-xs font-normal text-muted">{entry.action}</span>
        </p>
        <time dateTime={entry.at} className="text-sm text-muted">
          {momentIn(entry.at, timeZone)}
        </time>
      </div>
      <p className="mt-2 break-words">
        <span className="text-muted">By </span>
        <span className="font-medium">{actor.name}</span>
        <span className="badge badge-ghost badge-sm ml-2 align-middle">{actor.kind}</span>
        {actor.detail ? (
          <span className="block text-sm text-muted [overflow-wrap:anywhere]">{actor.detail}</span>
        ) : null}
      </p>
      <p className="mt-1 text-sm [overflow-wrap:anywhere]">{subjectOf(entry)}</p>
      {changes.length > 0 ? (
        <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-1 border-t border-base-300 pt-3 text-sm sm:grid-cols-[minmax(8rem,auto)_1fr]">
          {changes.map((change) => (
            <div key={change.field} className="contents">
              <dt className="text-muted">{change.field}</dt>
              <dd className="mb-1 [overflow-wrap:anywhere] sm:mb-0">
                {change.before !== null && change.after !== null ? (
                  <>
                    <span className="line-through decoration-muted">{change.before}</span>
                    <span aria-hidden="true"> → </span>
                    <span className="sr-only"> changed to </span>
                    <span className="font-medium">{change.after}</span>
                  </>
                ) : change.after !== null ? (
                  <span className="font-medium">{change.after}</span>
                ) : (
                  <>
                    {change.before}
                    <span className="text-muted"> (before)</span>
                  </>
                )}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}

/**
 * /dashboard/audit (admin): the audit log, newest first: every booking made, cancelled, paid or
 * refunded, every change of role, account, doctor, treatment and clinic rule, with who made it.
 * Filters by the clinic's days, by who acted and by action live in the address; older entries
 * come a page at a time.
 */
export function AuditPage() {
  const timeZone = useClinicTimeZone();
  const heading = useScreenHeading();
  const [search, setSearch] = useSearchParams();
  const filter = filterFrom(search);
  const entries = useQuery(auditQuery(filter));
  const [problem, setProblem] = useState<string | null>(null);
  const filtered = Boolean(filter.from || filter.to || filter.actor || filter.action);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const next = filterFrom(
      new URLSearchParams({
        from: String(data.get('from') ?? ''),
        to: String(data.get('to') ?? ''),
        actor: String(data.get('actor') ?? ''),
        action: String(data.get('action') ?? ''),
      }),
    );
    const wrong = rangeProblem(next);
    setProblem(wrong);
    if (wrong) return;
    setSearch(querySearchOf({ ...next, cursor: '' }));
  };

  const clear = () => {
    setProblem(null);
    setSearch({});
  };

  /** To the page after `cursor` (or the newest), the list read from its top. */
  const turnTo = (cursor: string) => {
    setSearch(querySearchOf({ ...filter, cursor }));
    heading.ref.current?.scrollIntoView({ block: 'start' });
    heading.ref.current?.focus({ preventScroll: true });
  };

  return (
    <div className="flex flex-col gap-5">
      <PageHeading eyebrow="Administration" title="Audit log" heading={heading} />
      <p className="text-muted">
        Every change to bookings, payments, treatments, the clinic&rsquo;s rules, roles, accounts
        and doctors, with who made it. Entries cannot be changed or deleted.
      </p>

      <form
        // A new filter starts the form afresh with the address's values.
        key={search.toString()}
        onSubmit={apply}
        aria-label="Filter the audit log"
        className="grid grid-cols-1 gap-4 rounded-box border border-base-300 bg-base-100 p-4 sm:grid-cols-2 xl:grid-cols-4"
      >
        <Field
          label="From"
          name="from"
          type="date"
          defaultValue={filter.from}
          error={problem ?? undefined}
        />
        <Field label="To" name="to" type="date" defaultValue={filter.to} />
        <Field
          label="Who"
          name="actor"
          type="search"
          defaultValue={filter.actor}
          maxLength={200}
          placeholder="Name or email"
          hint="Or a role: patient, admin or system."
        />
        <SelectField label="Action" name="action" defaultValue={filter.action}>
          {ACTION_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </SelectField>
        <div className="flex flex-wrap gap-3 sm:col-span-2 xl:col-span-4">
          <button type="submit" className="btn btn-primary">
            Apply filters
          </button>
          {filtered ? (
            <button type="button" className="btn btn-ghost" onClick={clear}>
              Clear filters
            </button>
          ) : null}
        </div>
      </form>

      <QueryState
        query={entries}
        loading={loadingEntries}
        what="The audit log"
        isEmpty={(data) => data.entries.length === 0}
        empty={
          <EmptyState title={filter.cursor ? 'No older entries' : 'No entries'}>
            {filtered
              ? 'Nothing in the audit log matches these filters.'
              : 'Changes to bookings, roles, accounts and doctors will be listed here.'}
          </EmptyState>
        }
      >
        {(data) => (
          <>
            <CardList ordered labelledBy={heading.id} stale={entries.isPlaceholderData}>
              {data.entries.map((entry) => (
                <Entry key={entry._id} entry={entry} timeZone={timeZone} />
              ))}
            </CardList>
            {filter.cursor || data.nextCursor ? (
              <nav aria-label="Audit log pages" className="flex flex-wrap justify-between gap-3">
                {filter.cursor ? (
                  <button
                    type="button"
                    className="btn btn-outline btn-primary btn-sm"
                    onClick={() => turnTo('')}
                  >
                    <span aria-hidden="true">←</span> Newest entries
                  </button>
                ) : (
                  <span />
                )}
                {data.nextCursor ? (
                  <button
                    type="button"
                    className="btn btn-outline btn-primary btn-sm"
                    onClick={() => turnTo(data.nextCursor ?? '')}
                  >
                    Older entries <span aria-hidden="true">→</span>
                  </button>
                ) : null}
              </nav>
            ) : null}
          </>
        )}
      </QueryState>
    </div>
  );
}
