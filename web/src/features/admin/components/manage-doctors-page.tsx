import {
  type Doctor,
  formatMediumDate,
  type HeldSlot,
  type IsoDate,
  messages,
  paths,
} from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { doctorsQuery } from '../../../api/doctors';
import { useConfirm } from '../../../components/confirm-dialog';
import { PageHeading, useScreenHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { ApiError, SessionEndedError } from '../../../lib/api-client';
import { upcomingBookingsOf, useDeleteDoctor } from '../api/delete-doctor';
import { CalendarFeedPanel, type FeedState } from './calendar-feed-panel';
import { DoctorsTable } from './doctors-table';
import { EditDoctorForm } from './edit-doctor-form';

interface Refusal {
  name: string;
  message: string;
  bookings: HeldSlot[];
}

/**
 * A deletion the server refused because the doctor still holds upcoming bookings: its reason and
 * those bookings (date, time, patient), each date linked to that day's schedule.
 */
function DeleteRefused({ refusal, onDismiss }: { refusal: Refusal; onDismiss: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <section
      aria-labelledby={headingId}
      className="alert alert-error alert-soft flex flex-col items-start gap-3"
    >
      <h2 id={headingId} ref={heading} tabIndex={-1} className="font-semibold outline-none">
        {`${refusal.name} was not deleted`}
      </h2>
      <p>{refusal.message}</p>
      <ul
        className="flex w-full flex-col gap-1.5"
        aria-label={`Upcoming appointments with ${refusal.name}`}
      >
        {refusal.bookings.map((booking) => (
          <li key={booking._id}>
            <Link className="link font-medium" to={`${paths.schedule}?date=${booking.date}`}>
              {formatMediumDate(booking.date as IsoDate)}
            </Link>
            {`, ${booking.slot}: ${booking.patientName}`}
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn-sm btn-outline" onClick={onDismiss}>
        Dismiss
      </button>
    </section>
  );
}

/**
 * /dashboard/manage-doctor (admin): the clinic's doctors with like, dislike and delete (spec
 * section 2, Manage Doctor), and an edit form per doctor (name, specialty, photo, treatments,
 * work days and days off), and a calendar feed panel per doctor (make, copy and stop the secret
 * link calendar apps subscribe to). A doctor who still holds upcoming bookings is not deleted: those
 * bookings are listed instead. Like only shows the spec's 'Like added' notice and dislike a neutral
 * 'Feedback noted': neither is stored, as the spec records no feedback.
 */
export function ManageDoctorsPage() {
  const confirm = useConfirm();
  const heading = useScreenHeading();
  const doctors = useQuery(doctorsQuery);
  const deleteDoctor = useDeleteDoctor();
  const [editing, setEditing] = useState<Doctor | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [feedFor, setFeedFor] = useState<Doctor | null>(null);
  /** What this visit to the screen learnt of each doctor's feed, by doctor id. */
  const [feeds, setFeeds] = useState<Record<string, FeedState>>({});

  /** The focus goes back to the doctor's button (`data-{attribute}`), or the heading. */
  const focusBack = (attribute: string, id: string | undefined) => {
    requestAnimationFrame(() => {
      const button = id
        ? document.querySelector<HTMLButtonElement>(`[data-${attribute}="${CSS.escape(id)}"]`)
        : null;
      (button ?? heading.ref.current)?.focus();
    });
  };

  /** The form closes; the focus goes back to the doctor's Edit button, or the heading. */
  const closeEditor = () => {
    const id = editing?._id;
    setEditing(null);
    focusBack('edit-doctor', id);
  };

  /** The feed panel closes; the focus goes back to the doctor's Calendar feed button. */
  const closeFeed = () => {
    const id = feedFor?._id;
    setFeedFor(null);
    focusBack('calendar-feed', id);
  };

  const remove = async (doctor: Doctor) => {
    setRefusal(null);
    const confirmed = await confirm({
      message: messages.doctorDeleteConfirm(doctor.name),
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    try {
      const { deletedCount } = await deleteDoctor.mutateAsync(doctor.email);
      if (deletedCount > 0) {
        toast.success(messages.doctorDeleted(doctor.name));
        // The feed went with the doctor.
        setFeedFor((open) => (open?._id === doctor._id ? null : open));
      } else toast.error(messages.doctorDeleteFailed);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      const upcoming = upcomingBookingsOf(error);
      if (upcoming && error instanceof ApiError) {
        // The list takes the focus: it says why, and which bookings to cancel or move first.
        toast.error(error.message);
        setRefusal({ name: doctor.name, message: error.message, bookings: upcoming });
        return;
      }
      toast.error(
        error instanceof ApiError && error.status !== 404 && error.message
          ? error.message
          : messages.doctorDeleteFailed,
      );
    }
    heading.ref.current?.focus();
  };

  return (
    <div className="flex flex-col gap-5">
      <PageHeading
        eyebrow="Administration"
        title="Manage Doctors"
        count={doctors.data?.length}
        heading={heading}
        action={
          <Link to={paths.addDoctor} className="btn btn-primary btn-outline">
            Add a doctor
          </Link>
        }
      />

      {refusal ? <DeleteRefused refusal={refusal} onDismiss={() => setRefusal(null)} /> : null}

      {editing ? <EditDoctorForm key={editing._id} doctor={editing} onClose={closeEditor} /> : null}

      {feedFor ? (
        <CalendarFeedPanel
          key={feedFor._id}
          doctor={feedFor}
          state={feeds[feedFor._id] ?? 'unknown'}
          onStateChange={(state) => setFeeds((known) => ({ ...known, [feedFor._id]: state }))}
          onClose={closeFeed}
        />
      ) : null}

      <QueryState
        query={doctors}
        loading={<TableLoading label="Loading the doctors…" />}
        what="The doctors"
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState
            title="No doctors yet"
            link={{ to: paths.addDoctor, label: 'Add the first doctor' }}
          >
            Doctors you add, with their photo and specialty, will be listed here.
          </EmptyState>
        }
      >
        {(list) => (
          <DoctorsTable
            doctors={list}
            deleting={deleteDoctor.isPending ? deleteDoctor.variables : null}
            onLike={() => toast.success(messages.likeAdded)}
            onDislike={() => toast.info('Feedback noted')}
            onDelete={(doctor) => void remove(doctor)}
            onEdit={(doctor) => {
              setRefusal(null);
              setFeedFor(null);
              setEditing(doctor);
            }}
            onCalendarFeed={(doctor) => {
              setRefusal(null);
              setEditing(null);
              setFeedFor(doctor);
            }}
            labelledBy={heading.id}
          />
        )}
      </QueryState>
    </div>
  );
}
