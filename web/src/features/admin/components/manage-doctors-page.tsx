import { type Doctor, messages, paths } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { useConfirm } from '../../../components/confirm-dialog';
import { PageHeading } from '../../../components/page-heading';
import { QueryState } from '../../../components/query-state';
import { EmptyState, TableLoading } from '../../../components/responsive-table';
import { Spinner } from '../../../components/spinner';
import { ApiError, SessionEndedError } from '../../../lib/api-client';
import { useDeleteDoctor } from '../api/delete-doctor';
import { doctorsQuery } from '../api/get-doctors';
import { DoctorsTable } from './doctors-table';

/**
 * /dashboard/manage-doctor (admin): the clinic's doctors with like, dislike and delete (spec
 * section 2, Manage Doctor). Like only shows the spec's 'Like added' notice and dislike a neutral
 * 'Feedback noted': neither is stored, as the spec records no feedback.
 */
export function ManageDoctorsPage() {
  const confirm = useConfirm();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const doctors = useQuery(doctorsQuery);
  const deleteDoctor = useDeleteDoctor();

  const remove = async (doctor: Doctor) => {
    const confirmed = await confirm({
      message: messages.doctorDeleteConfirm(doctor.name),
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    try {
      const { deletedCount } = await deleteDoctor.mutateAsync(doctor.email);
      if (deletedCount > 0) toast.success(messages.doctorDeleted(doctor.name));
      else toast.error(messages.doctorDeleteFailed);
    } catch (error) {
      if (error instanceof SessionEndedError) return;
      toast.error(
        error instanceof ApiError && error.status !== 404 && error.message
          ? error.message
          : messages.doctorDeleteFailed,
      );
    }
    heading.current?.focus();
  };

  const count = doctors.data?.length;

  return (
    <div className="flex flex-col gap-5">
      <PageHeading
        eyebrow="Administration"
        title={count === undefined ? 'Manage Doctors' : `Manage Doctors: ${count}`}
        headingId={headingId}
        headingRef={heading}
        action={
          <Link to={paths.addDoctor} className="btn btn-primary btn-outline">
            Add a doctor
          </Link>
        }
      />

      <QueryState
        query={doctors}
        loading={
          <TableLoading>
            <Spinner label="Loading the doctors…" />
          </TableLoading>
        }
        error={(error) => `The doctors could not be loaded. ${error.message}`}
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState
            title="No doctors yet"
            action={
              <Link to={paths.addDoctor} className="btn btn-primary">
                Add the first doctor
              </Link>
            }
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
            labelledBy={headingId}
          />
        )}
      </QueryState>
    </div>
  );
}
