import { formatMediumDate, type VisitLink } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { clinicQuery } from '../../../api/clinic';
import { PhoneLink } from '../../../components/phone-link';

/** The visit a link is for: what, when and with whom. */
export function VisitSummary({ booking }: { booking: VisitLink['booking'] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 rounded-box bg-base-200 p-4">
      <dt className="font-medium text-neutral">Treatment</dt>
      <dd>{booking.treatment}</dd>
      <dt className="font-medium text-neutral">Date</dt>
      <dd>{formatMediumDate(booking.date)}</dd>
      <dt className="font-medium text-neutral">Time</dt>
      <dd>{booking.slot}</dd>
      {booking.doctor && (
        <>
          <dt className="font-medium text-neutral">Dentist</dt>
          <dd>{booking.doctor.name}</dd>
        </>
      )}
    </dl>
  );
}

/** The clinic's phone, for what a link cannot do. */
export function CallTheClinic() {
  const { data: clinic } = useQuery(clinicQuery);
  if (!clinic) return null;
  return (
    <p className="text-sm text-muted">
      Questions? Call the clinic on <PhoneLink phone={clinic.phone} className="link" />.
    </p>
  );
}

/** A page of its own for one answer: its title, and what follows. */
export function VisitCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="container-page flex justify-center py-12 sm:py-16">
      <div className="card w-full max-w-xl bg-base-100 shadow-sm">
        <div className="card-body gap-4">
          <p className="eyebrow">Your visit</p>
          <h1 className="heading-2 text-neutral">{title}</h1>
          {children}
        </div>
      </div>
    </section>
  );
}

/** The visit in a sentence: 'Teeth Cleaning on Jan 5, 2030 at 10:00 AM - 10:30 AM'. */
export const visitInWords = ({ treatment, date, slot }: VisitLink['booking']) =>
  `${treatment} on ${formatMediumDate(date)} at ${slot}`;
