import { type Clinic, OPENING_HOURS, paths } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { clinicQuery } from '../../../api/clinic';
import { PhoneLink } from '../../../components/phone-link';
import { ClinicDetail } from './clinic-detail';
import { ClockIcon, MailIcon, PhoneIcon, PinIcon } from './icons';

/** Where and when to find the clinic, with a way to book. */
export function VisitCard({ headingLevel = 'h2' }: { headingLevel?: 'h2' | 'h3' }) {
  const clinic = useQuery(clinicQuery);
  const Heading = headingLevel;
  /** A detail of the clinic; a grey bar while the details load. */
  const detail = (show: (data: Clinic) => ReactNode) =>
    clinic.data ? (
      show(clinic.data)
    ) : (
      <span className="inline-block h-4 w-40 animate-pulse rounded bg-base-300" />
    );

  return (
    <aside className="rounded-box border border-base-300 bg-base-100 p-7 shadow-soft">
      <Heading className="heading-3 text-neutral">Visit the clinic</Heading>
      <dl className="mt-5 space-y-4 text-[0.95rem]">
        <ClinicDetail look="card" icon={<ClockIcon className="size-5" />} label="Opening hours">
          {OPENING_HOURS}
        </ClinicDetail>
        <ClinicDetail look="card" icon={<PinIcon className="size-5" />} label="Address">
          {detail((data) => data.address)}
        </ClinicDetail>
        <ClinicDetail look="card" icon={<PhoneIcon className="size-5" />} label="Phone">
          {detail((data) => (
            <PhoneLink phone={data.phone} className="link link-primary" />
          ))}
        </ClinicDetail>
        <ClinicDetail
          look="card"
          icon={<MailIcon className="size-5" />}
          label="Email"
          className="min-w-0 break-words"
        >
          {detail((data) => (
            <a className="link link-primary" href={`mailto:${data.email}`}>
              {data.email}
            </a>
          ))}
        </ClinicDetail>
      </dl>
      <Link to={paths.appointment} className="btn btn-primary mt-7 w-full">
        Book an appointment
      </Link>
    </aside>
  );
}
