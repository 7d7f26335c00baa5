import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { AddDoctorForm } from './add-doctor-form';

/** /dashboard/add-doctor (admin): the add-doctor form (spec section 2, Add Doctor). */
export function AddDoctorPage() {
  return (
    <div className="flex flex-col gap-5">
      <PageHeading
        eyebrow="Administration"
        title="Add a New Doctor"
        action={
          <Link to={paths.manageDoctor} className="btn btn-primary btn-outline">
            Manage doctors
          </Link>
        }
      />
      <section
        aria-label="New doctor"
        className="rounded-box border border-base-300 bg-base-100 p-5 shadow-soft sm:p-8"
      >
        <p className="mb-6 max-w-2xl text-muted">
          Name, email, specialty and photo are required; a new doctor works every day unless you
          untick some. The photo is uploaded first, then the doctor is added to the clinic&rsquo;s
          list.
        </p>
        <AddDoctorForm />
      </section>
    </div>
  );
}
