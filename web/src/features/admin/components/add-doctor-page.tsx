import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';
import { AddDoctorForm } from './add-doctor-form';

/** /dashboard/add-doctor (admin): the add-doctor form (spec section 2, Add Doctor). */
export function AddDoctorPage() {
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <p className="eyebrow">Administration</p>
          <h1 className="heading-2 mt-2 text-neutral">Add a New Doctor</h1>
        </div>
        <Link to={paths.manageDoctor} className="btn btn-primary btn-outline">
          Manage doctors
        </Link>
      </div>
      <section
        aria-label="New doctor"
        className="rounded-box border border-base-300 bg-base-100 p-5 shadow-soft sm:p-8"
      >
        <p className="mb-6 max-w-2xl text-muted">
          Every field is required. The photo is uploaded first, then the doctor is added to the
          clinic&rsquo;s list.
        </p>
        <AddDoctorForm />
      </section>
    </div>
  );
}
