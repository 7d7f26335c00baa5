import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';

/** /dashboard/history: the spec's placeholder page 'This is my History!'. */
export default function HistoryRoute() {
  return (
    <section className="rounded-box border border-base-300 bg-base-100 p-6 shadow-soft sm:p-10">
      <p className="eyebrow">Your visits</p>
      <h1 className="heading-2 mt-3 text-neutral">This is my History!</h1>
      <p className="lead mt-4 max-w-2xl">
        Your past visits and treatments will be gathered here, so you always know when you last saw
        us and what was done. Until then, your upcoming and recent bookings are listed under My
        Appointments.
      </p>
      <Link to={paths.dashboard} className="btn btn-primary btn-outline mt-8">
        See my appointments
      </Link>
    </section>
  );
}
