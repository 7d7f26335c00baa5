import type { Treatment } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { toast } from 'react-toastify/unstyled';
import { treatmentsQuery } from '../../../api/treatments';
import { useConfirm } from '../../../components/confirm-dialog';
import { PageHeading, useScreenHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { reasonOf, SessionEndedError } from '../../../lib/api-client';
import { useChangeTreatment } from '../api/change-treatment';
import { TreatmentForm } from './treatment-form';
import { TreatmentsTable } from './treatments-table';

const loading = <TableLoading label="Loading treatments…" />;

/**
 * /dashboard/treatments (admin): the clinic's treatments and prices. Add one, edit its name,
 * description, price and slot times, retire it (after a confirmation: it leaves the booking page,
 * its bookings stay) or bring it back.
 */
export function TreatmentsPage() {
  const treatments = useQuery(treatmentsQuery);
  const change = useChangeTreatment();
  const confirm = useConfirm();
  const heading = useScreenHeading();
  const tableHeadingId = useId();
  const [editing, setEditing] = useState<Treatment | 'new' | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  /** The treatment whose Retire or Bring back was pressed: its row keeps the focus after. */
  const [focusAfter, setFocusAfter] = useState<string | null>(null);

  // Once the row's button is enabled again (a disabled button drops the focus to the page's
  // start), it takes the focus back: Bring back after Retire, Retire after Bring back.
  useEffect(() => {
    if (!focusAfter || busy) return;
    const button = document
      .getElementById(`treatment-${focusAfter}`)
      ?.querySelector<HTMLButtonElement>('[data-row-action="retire"]');
    (button ?? heading.ref.current)?.focus();
    setFocusAfter(null);
  }, [focusAfter, busy, heading.ref]);

  const closeForm = () => {
    setEditing(null);
    heading.ref.current?.focus();
  };

  const setRetired = async (treatment: Treatment, retired: boolean) => {
    if (
      retired &&
      !(await confirm({
        message: `Retire ${treatment.name}? Patients can no longer book it; its existing bookings stay booked.`,
        confirmLabel: 'Retire',
        danger: true,
      }))
    ) {
      return;
    }
    setBusy(treatment._id);
    try {
      await change.mutateAsync({ id: treatment._id, change: { retired } });
      toast.success(
        retired
          ? `Retired ${treatment.name}: it is no longer offered.`
          : `${treatment.name} is offered again.`,
      );
    } catch (error) {
      if (!(error instanceof SessionEndedError)) {
        toast.error(reasonOf(error, 'The treatment could not be changed. Please try again.'));
      }
    } finally {
      setBusy(null);
      setFocusAfter(treatment._id);
    }
  };

  return (
    <div className="flex flex-col gap-5">
      <PageHeading
        eyebrow="Administration"
        title="Treatments"
        heading={heading}
        action={
          editing === null ? (
            <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
              New treatment
            </button>
          ) : undefined
        }
      />
      <p className="max-w-2xl text-muted">
        What patients can book, at which price and slot times. A change shows on the booking page at
        once; bookings already made keep the name and price they were booked with.
      </p>
      {editing !== null ? (
        <TreatmentForm
          key={editing === 'new' ? 'new' : editing._id}
          treatment={editing === 'new' ? null : editing}
          onClose={closeForm}
        />
      ) : null}
      <h2 id={tableHeadingId} className="sr-only">
        The clinic’s treatments
      </h2>
      <QueryState
        query={treatments}
        loading={loading}
        what="The treatments"
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState title="No treatments yet">
            Add the clinic’s first treatment with New treatment.
          </EmptyState>
        }
      >
        {(list) => (
          <TreatmentsTable
            treatments={list}
            labelledBy={tableHeadingId}
            busy={busy}
            onEdit={(treatment) => setEditing(treatment)}
            onRetire={(treatment) => void setRetired(treatment, true)}
            onRestore={(treatment) => void setRetired(treatment, false)}
          />
        )}
      </QueryState>
    </div>
  );
}
