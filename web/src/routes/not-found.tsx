import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';
import toothImg from '../features/landing/assets/service-whitening.svg';

export default function NotFoundRoute() {
  return (
    <section className="container-page flex flex-col items-center py-20 text-center sm:py-28">
      <img src={toothImg} width={96} height={96} alt="" className="size-24" />
      <p className="eyebrow mt-6">Error 404</p>
      <h1 className="heading-2 mt-3 text-neutral">Page not found</h1>
      <p className="lead mt-4 max-w-lg">
        We could not find the page you were looking for. It may have moved, or the address may be
        mistyped.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to={paths.root} className="btn btn-primary btn-lg px-7">
          Back to home
        </Link>
        <Link to={paths.appointment} className="btn btn-ghost btn-lg">
          Book an appointment
        </Link>
      </div>
    </section>
  );
}
