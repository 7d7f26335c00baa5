import { type Doctor, messages, paths } from '@doctors-portal/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify/unstyled';
import { useConfirm } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { Spinner } from '../../components/spinner';
import { adminKeys, deleteDoctor, doctorsQuery } from '../../features/admin/api/admin';
import { DoctorsTable } from '../../features/admin/components/doctors-table';
import { EmptyState, TableLoading } from '../../features/admin/components/responsive-table';
import { ApiError } from '../../lib/api-client';

/**
 * /dashboard/manage-doctor (admin): the clinic's doctors with like, dislike and delete (spec
 * section 2, Manage Doctor). Like only shows the spec's 'Like added' notice and dislike a neutral
 * 'Feedback noted': neither is stored, as the spec records no feedback.
 */
export default function ManageDoctorRoute() {
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const doctors = useQuery(doctorsQuery);

  const remove = async (doctor: Doctor) => {
    const confirmed = await confirm({
      message: messages.doctorDeleteConfirm(doctor.name),
      confirmLabel: 'Delete',
      danger: true,
    });
    if (!confirmed) return;
    setDeleting(doctor.email);
    try {
      const { deletedCount } = await deleteDoctor(doctor.email);
      if (deletedCount > 0) toast.success(messages.doctorDeleted(doctor.name));
      else toast.error(messages.doctorDeleteFailed);
    } catch (error) {
      toast.error(
        error instanceof ApiError && error.status !== 404 && error.message
          ? error.message
          : messages.doctorDeleteFailed,
      );
    } finally {
      setDeleting(null);
    }
    await queryClient.invalidateQueries({ queryKey: adminKeys.doctors });
    heading.current?.focus();
  };

  const count = doctors.data?.length;

  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="eyebrow">Administration</p>
          <h1
            id={headingId}
            ref={heading}
            tabIndex={-1}
            className="heading-2 mt-2 text-neutral outline-none"
          >
            {count === undefined ? 'Manage Doctors' : `Manage Doctors: ${count}`}
          </h1>
        </div>
        <Link to={paths.addDoctor} className="btn btn-primary btn-outline">
          Add a doctor
        </Link>
      </div>

      {doctors.data ? (
        doctors.data.length > 0 ? (
          <DoctorsTable
            doctors={doctors.data}
            deleting={deleting}
            onLike={() => toast.success(messages.likeAdded)}
            onDislike={() => toast.info('Feedback noted')}
            onDelete={(doctor) => void remove(doctor)}
            labelledBy={headingId}
          />
        ) : (
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
        )
      ) : doctors.isError ? (
        <div className="flex flex-col items-start gap-3">
          <ErrorAlert>{`The doctors could not be loaded. ${doctors.error.message}`}</ErrorAlert>
          <button
            type="button"
            className="btn btn-primary btn-outline btn-sm"
            onClick={() => void doctors.refetch()}
            disabled={doctors.isFetching}
          >
            Try again
          </button>
        </div>
      ) : (
        <TableLoading>
          <Spinner label="Loading the doctors…" />
        </TableLoading>
      )}
    </div>
  );
}
