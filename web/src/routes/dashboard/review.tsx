import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';

/** /dashboard/review: the spec's placeholder page 'My Review'. */
export default function ReviewRoute() {
  return (
    <section className="rounded-box border border-base-300 bg-base-100 p-6 shadow-soft sm:p-10">
      <p className="eyebrow">Your feedback</p>
      <h1 className="heading-2 mt-3 text-neutral">My Review</h1>
      <p className="lead mt-4 max-w-2xl">
        Soon you&rsquo;ll be able to rate your visits and tell us how we did. Every review helps our
        team make the next visit a little better, for you and for every patient.
      </p>
      <Link to={paths.dashboard} className="btn btn-primary btn-outline mt-8">
        Back to my appointments
      </Link>
    </section>
  );
}
