import { OPENING_HOURS } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { clinicQuery } from '../../../api/clinic';
import { ClockIcon, MailIcon, PhoneIcon, PinIcon } from './icons';

/** Builds a mailto: link with the subject and message filled in. */
export function contactMailto(to: string, from: string, subject: string, message: string) {
  const body = `${message.trim()}\n\n— ${from}`;
  const params = `subject=${encodeURIComponent(subject.trim() || 'A question from the website')}&body=${encodeURIComponent(body)}`;
  return `mailto:${encodeURIComponent(to).replace('%40', '@')}?${params}`;
}

function Detail({
  icon,
  label,
  children,
}: {
  icon: ReactNode;
  label: string;
  children: ReactNode;
}) {
  return (
    <div className="flex gap-4">
      <dt className="grid size-11 shrink-0 place-items-center rounded-xl bg-white/15">
        {icon}
        <span className="sr-only">{label}</span>
      </dt>
      <dd className="min-w-0 self-center break-words text-white">{children}</dd>
    </div>
  );
}

/**
 * The 'Contact Us' form (anchor #who-we-are). The spec sends it nowhere; we hand the message to
 * the visitor's mail app, addressed to the clinic, with subject and text filled in.
 */
export function ContactSection() {
  const clinic = useQuery(clinicQuery);
  const [note, setNote] = useState('');
  const ids = useId();
  const field = (name: string) => `${ids}-${name}`;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const clinicEmail = clinic.data?.email;
    if (!clinicEmail) {
      setNote(
        'We could not load our email address just now. Please call us, or try again shortly.',
      );
      return;
    }
    window.location.href = contactMailto(
      clinicEmail,
      String(data.get('email') ?? ''),
      String(data.get('subject') ?? ''),
      String(data.get('message') ?? ''),
    );
    setNote(
      `Your mail app is opening with your message to ${clinicEmail}. If nothing opens, write to us at that address.`,
    );
  }

  const loading = <span className="inline-block h-4 w-40 animate-pulse rounded bg-white/25" />;

  return (
    <section id="who-we-are" aria-labelledby="contact-title" className="section-y">
      <div className="container-page">
        <div className="on-dark grid gap-10 overflow-hidden rounded-[2rem] bg-gradient-to-br from-primary to-secondary px-5 py-8 text-white shadow-lift sm:p-10 lg:grid-cols-[1fr_1.1fr] lg:gap-14 lg:p-14">
          <div>
            <p className="text-sm font-semibold uppercase tracking-[0.14em] text-white">
              Get in touch
            </p>
            <h2 id="contact-title" className="heading-2 mt-3 text-white">
              Contact Us
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-white">
              A question about a treatment, costs or your next visit? Send us a note and our front
              desk will answer within one working day.
            </p>
            <dl className="mt-8 space-y-4">
              <Detail icon={<PhoneIcon className="size-5" />} label="Phone">
                {clinic.data ? (
                  <a
                    href={`tel:${clinic.data.phone.replace(/[^\d+]/g, '')}`}
                    className="rounded underline decoration-white/50 underline-offset-4 hover:decoration-white"
                  >
                    {clinic.data.phone}
                  </a>
                ) : (
                  loading
                )}
              </Detail>
              <Detail icon={<MailIcon className="size-5" />} label="Email">
                {clinic.data ? (
                  <a
                    href={`mailto:${clinic.data.email}`}
                    className="rounded underline decoration-white/50 underline-offset-4 hover:decoration-white"
                  >
                    {clinic.data.email}
                  </a>
                ) : (
                  loading
                )}
              </Detail>
              <Detail icon={<PinIcon className="size-5" />} label="Address">
                {clinic.data ? clinic.data.address : loading}
              </Detail>
              <Detail icon={<ClockIcon className="size-5" />} label="Opening hours">
                {OPENING_HOURS}
              </Detail>
            </dl>
          </div>

          <form
            onSubmit={onSubmit}
            aria-labelledby="contact-title"
            className="rounded-box bg-base-100 p-5 text-base-content shadow-lift sm:p-8"
          >
            <div className="space-y-5">
              <div>
                <label htmlFor={field('email')} className="mb-1.5 block text-sm font-semibold">
                  Email Address
                </label>
                <input
                  id={field('email')}
                  name="email"
                  type="email"
                  required
                  autoComplete="email"
                  placeholder="you@example.com"
                  className="input input-lg w-full text-base"
                />
              </div>
              <div>
                <label htmlFor={field('subject')} className="mb-1.5 block text-sm font-semibold">
                  Subject
                </label>
                <input
                  id={field('subject')}
                  name="subject"
                  type="text"
                  placeholder="e.g. Question about whitening"
                  className="input input-lg w-full text-base"
                />
              </div>
              <div>
                <label htmlFor={field('message')} className="mb-1.5 block text-sm font-semibold">
                  Your Message
                </label>
                <textarea
                  id={field('message')}
                  name="message"
                  rows={5}
                  placeholder="How can we help?"
                  className="textarea w-full text-base"
                />
              </div>
            </div>
            <button type="submit" className="btn btn-primary btn-lg mt-6 w-full">
              Submit
            </button>
            <p role="status" className="mt-3 text-sm text-muted">
              {note}
            </p>
          </form>
        </div>
      </div>
    </section>
  );
}
