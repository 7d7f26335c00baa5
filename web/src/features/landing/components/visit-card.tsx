import { OPENING_HOURS, paths } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { clinicQuery } from '../../../api/clinic';
import { ClockIcon, MailIcon, PhoneIcon, PinIcon } from './icons';

/** Where and when to find the clinic, with a way to book. */
export function VisitCard({ headingLevel = 'h2' }: { headingLevel?: 'h2' | 'h3' }) {
  const clinic = useQuery(clinicQuery);
  const Heading = headingLevel;
  const value = (text: string | undefined) =>
    text ?? <span className="inline-block h-4 w-40 animate-pulse rounded bg-base-300" />;

  return (
    <aside className="rounded-box border border-base-300 bg-base-100 p-7 shadow-soft">
      <Heading className="heading-3 text-neutral">Visit the clinic</Heading>
      <dl className="mt-5 space-y-4 text-[0.95rem]">
        <div className="flex gap-3">
          <dt className="text-primary">
            <ClockIcon className="size-5" />
            <span className="sr-only">Opening hours</span>
          </dt>
          <dd>{OPENING_HOURS}</dd>
        </div>
        <div className="flex gap-3">
          <dt className="text-primary">
            <PinIcon className="size-5" />
            <span className="sr-only">Address</span>
          </dt>
          <dd>{value(clinic.data?.address)}</dd>
        </div>
        <div className="flex gap-3">
          <dt className="text-primary">
            <PhoneIcon className="size-5" />
            <span className="sr-only">Phone</span>
          </dt>
          <dd>
            {clinic.data ? (
              <a
                className="link link-primary"
                href={`tel:${clinic.data.phone.replace(/[^\d+]/g, '')}`}
              >
                {clinic.data.phone}
              </a>
            ) : (
              value(undefined)
            )}
          </dd>
        </div>
        <div className="flex gap-3">
          <dt className="text-primary">
            <MailIcon className="size-5" />
            <span className="sr-only">Email</span>
          </dt>
          <dd className="min-w-0 break-words">
            {clinic.data ? (
              <a className="link link-primary" href={`mailto:${clinic.data.email}`}>
                {clinic.data.email}
              </a>
            ) : (
              value(undefined)
            )}
          </dd>
        </div>
      </dl>
      <Link to={paths.appointment} className="btn btn-primary mt-7 w-full">
        Book an appointment
      </Link>
    </aside>
  );
}
