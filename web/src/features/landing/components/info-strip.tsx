import { type Clinic, OPENING_HOURS } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import type { ComponentType, ReactNode } from 'react';
import { clinicQuery } from '../../../api/clinic';
import { PhoneLink } from '../../../components/phone-link';
import { ClockIcon, PhoneIcon, PinIcon } from './icons';

/** The cards' colours, one of the theme's strong ones each. */
const TONES = {
  primary: 'bg-primary text-primary-content',
  neutral: 'bg-neutral text-neutral-content',
  secondary: 'bg-secondary text-secondary-content',
} as const;

function InfoCard({
  icon: CardIcon,
  title,
  tone,
  children,
}: {
  icon: ComponentType<{ className?: string }>;
  title: string;
  tone: keyof typeof TONES;
  children: ReactNode;
}) {
  return (
    <li
      className={`on-dark rounded-box p-6 shadow-lift sm:p-7 sm:last:col-span-2 lg:last:col-span-1 ${TONES[tone]}`}
    >
      <div className="flex items-center gap-4">
        <span className="grid size-12 shrink-0 place-items-center rounded-2xl bg-white/15">
          <CardIcon className="size-7" />
        </span>
        <h2 className="text-lg font-semibold text-white">{title}</h2>
      </div>
      <div className="mt-4 min-h-6 leading-6 text-white">{children}</div>
    </li>
  );
}

/** Reserves the text's space while the clinic's details load, so the layout does not jump. */
function Placeholder({ width }: { width: string }) {
  return (
    <>
      <span aria-hidden="true" className={`shimmer mt-1 block h-4 ${width}`} />
      <span className="sr-only">Loading…</span>
    </>
  );
}

const unavailable = <span>Ask our front desk</span>;

/** A map search of the clinic's address (Google Maps' documented search URL). */
export const mapSearchUrl = (address: string) =>
  `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;

/** Opening hours, where to find us and how to call us, just below the hero. */
export function InfoStrip() {
  const clinic = useQuery(clinicQuery);
  /**
   * A detail of the clinic; while the details load, its space (`width` wide); should they fail,
   * the front desk.
   */
  const detail = (show: (data: Clinic) => ReactNode, width: string) =>
    clinic.data ? show(clinic.data) : clinic.isError ? unavailable : <Placeholder width={width} />;

  return (
    <section aria-label="Opening hours and contact" className="relative z-10 -mt-20 lg:-mt-24">
      <ul className="container-page grid gap-5 sm:grid-cols-2 lg:grid-cols-3 lg:gap-6">
        <InfoCard icon={ClockIcon} title="Opening Hours" tone="primary">
          <p>{OPENING_HOURS}</p>
        </InfoCard>
        <InfoCard icon={PinIcon} title="Visit Our Location" tone="neutral">
          {detail(
            (data) => (
              <address className="not-italic">
                <a
                  href={mapSearchUrl(data.address)}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="rounded underline decoration-white/50 underline-offset-4 hover:decoration-white"
                >
                  {data.address}
                  <span className="sr-only"> (opens a map in a new tab)</span>
                </a>
              </address>
            ),
            'w-44',
          )}
        </InfoCard>
        <InfoCard icon={PhoneIcon} title="Contact Us Now" tone="secondary">
          {detail(
            (data) => (
              <PhoneLink
                phone={data.phone}
                className="rounded font-semibold underline decoration-white/50 underline-offset-4 hover:decoration-white"
              />
            ),
            'w-36',
          )}
        </InfoCard>
      </ul>
    </section>
  );
}
