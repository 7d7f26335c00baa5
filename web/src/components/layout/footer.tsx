import { OPENING_HOURS, paths } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { clinicQuery } from '../../api/clinic';
import { PhoneLink } from '../phone-link';
import { BrandLink } from './brand-link';

interface FooterLink {
  label: string;
  to: string;
}

const COLUMNS: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Services',
    links: [
      { label: 'Fluoride Treatment', to: '/#service-1' },
      { label: 'Cavity Filling', to: '/#service-2' },
      { label: 'Teeth Whitening', to: '/#service-3' },
      { label: 'Book a visit', to: paths.appointment },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'About us', to: paths.about },
      { label: 'Our team', to: paths.whoWeAre },
      { label: 'Patient reviews', to: '/#review' },
      { label: 'Get in touch', to: '/#who-we-are' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Privacy policy', to: `${paths.about}#privacy` },
      { label: 'Terms of care', to: `${paths.about}#terms` },
      { label: 'Cookie policy', to: `${paths.about}#cookies` },
      { label: 'Accessibility', to: `${paths.about}#accessibility` },
    ],
  },
];

/** The footer of every page: link lists, the clinic's contact line and the copyright notice. */
export function Footer() {
  const year = new Date().getFullYear();
  const clinic = useQuery(clinicQuery);

  return (
    <footer className="on-dark bg-neutral text-neutral-content">
      <div className="container-page grid gap-12 py-14 sm:py-16 lg:grid-cols-[1.2fr_2fr] lg:gap-16">
        <div className="max-w-sm">
          <BrandLink className="inline-flex items-center gap-2.5 rounded-field font-display text-xl font-bold text-white" />
          <p className="mt-4 leading-relaxed text-mist">
            Gentle, modern dentistry for the whole family. Book online in a minute, or give our
            front desk a call.
          </p>
          <dl className="mt-6 space-y-2 text-sm">
            <div className="flex gap-2">
              <dt className="font-semibold text-white">Open</dt>
              <dd className="text-mist">{OPENING_HOURS}</dd>
            </div>
            <div className="flex min-h-5 gap-2">
              <dt className="font-semibold text-white">Call</dt>
              <dd className="text-mist">
                {clinic.data ? (
                  <PhoneLink
                    phone={clinic.data.phone}
                    className="underline-offset-4 hover:text-white hover:underline"
                  />
                ) : (
                  '…'
                )}
              </dd>
            </div>
          </dl>
        </div>

        <div className="grid grid-cols-2 gap-x-6 gap-y-10 sm:grid-cols-3">
          {COLUMNS.map((column) => (
            <div key={column.title}>
              <h2 className="text-sm font-semibold uppercase tracking-[0.14em] text-white">
                {column.title}
              </h2>
              <ul className="mt-4 space-y-1">
                {column.links.map((link) => (
                  <li key={link.label}>
                    <Link
                      to={link.to}
                      className="inline-block rounded py-1 text-mist underline-offset-4 transition-colors hover:text-white hover:underline"
                    >
                      {link.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </div>
      <div className="border-t border-white/10">
        {/* The year of the prerendered page may be last year's on New Year's Eve: React keeps it. */}
        <p suppressHydrationWarning className="container-page py-6 text-center text-sm text-mist">
          Copyright © {year} - All right reserved by Doctors Portal Health Organisation
        </p>
      </div>
    </footer>
  );
}
