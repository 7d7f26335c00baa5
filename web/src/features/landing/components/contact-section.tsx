import { CONTACT_MESSAGE_MAX, CONTACT_SUBJECT_MAX, OPENING_HOURS } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type InputHTMLAttributes, useId, useState } from 'react';
import { clinicQuery } from '../../../api/clinic';
import { PhoneLink } from '../../../components/phone-link';
import { ApiError } from '../../../lib/api-client';
import { useHydrated } from '../../../lib/use-hydrated';
import { useSendContactMessage } from '../api/send-contact-message';
import { ClinicDetail } from './clinic-detail';
import { ClockIcon, MailIcon, PhoneIcon, PinIcon } from './icons';

/** The panel's phone and email links, white on its colours. */
const LINK = 'rounded underline decoration-white/50 underline-offset-4 hover:decoration-white';

/** The form's fields the server may give reasons for. */
type ContactField = 'email' | 'subject' | 'message';
const FIELDS: readonly ContactField[] = ['email', 'subject', 'message'];

/** What the form says under its button, and what it says about each field. */
export interface ContactOutcome {
  kind: 'sent' | 'refused';
  note: string;
  fields: Partial<Record<ContactField, string>>;
}

/**
 * What the form shows for the server's answer: its thanks, or its reasons (each field's own
 * under the field, the rest under the button).
 */
export function contactOutcome(result: { message: string } | unknown): ContactOutcome {
  if (!(result instanceof Error)) {
    return { kind: 'sent', note: (result as { message: string }).message, fields: {} };
  }
  const fields: ContactOutcome['fields'] = {};
  if (result instanceof ApiError && result.status === 400) {
    const issues = (result.body as { issues?: Array<{ field?: unknown; message?: unknown }> })
      ?.issues;
    for (const issue of issues ?? []) {
      const field = FIELDS.find((name) => name === issue.field);
      if (field && typeof issue.message === 'string' && !fields[field]) {
        fields[field] = issue.message;
      }
    }
  }
  const note =
    Object.keys(fields).length > 0
      ? 'Your message was not sent: please check the fields marked below.'
      : result instanceof ApiError && result.message
        ? result.message
        : 'Your message could not be sent. Please try again, or call us.';
  return { kind: 'refused', note, fields };
}

/**
 * A field of the form: its label above, and below it the server's reason about it, read out with
 * it. A text input, or a text area of `rows` rows.
 */
function ContactControl({
  name,
  label,
  problem,
  rows,
  type = 'text',
  ...control
}: {
  name: ContactField;
  label: string;
  problem: string | undefined;
  rows?: number;
} & Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'required' | 'autoComplete' | 'placeholder' | 'maxLength'
>) {
  const id = useId();
  const attributes = {
    id,
    name,
    ...control,
    'aria-invalid': problem ? true : undefined,
    'aria-describedby': problem ? `${id}-error` : undefined,
  };
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-semibold">
        {label}
      </label>
      {rows ? (
        <textarea
          rows={rows}
          className={`textarea w-full text-base ${problem ? 'textarea-error' : ''}`}
          {...attributes}
        />
      ) : (
        <input
          type={type}
          className={`input input-lg w-full text-base ${problem ? 'input-error' : ''}`}
          {...attributes}
        />
      )}
      {problem ? (
        <p id={`${id}-error`} className="mt-1.5 text-sm text-error">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The 'Contact Us' form (anchor #who-we-are). The message is sent to the clinic
 * (`POST /api/contact`: stored for the back office's Messages and mailed to the clinic's
 * address); the form then thanks the visitor, or shows the server's reasons.
 */
export function ContactSection() {
  const clinic = useQuery(clinicQuery);
  const send = useSendContactMessage();
  const [outcome, setOutcome] = useState<ContactOutcome | null>(null);
  const websiteId = useId();
  // On the prerendered page the form waits for the app: sent before, it would reload the page
  // and lose the message.
  const hydrated = useHydrated();
  const problem = (name: ContactField) => outcome?.fields[name];

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? '');
    try {
      const answer = await send.mutateAsync({
        email: text('email'),
        subject: text('subject'),
        message: text('message'),
        website: text('website'),
      });
      setOutcome(contactOutcome(answer));
      form.reset();
    } catch (error) {
      setOutcome(contactOutcome(error));
    }
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
              <ClinicDetail look="panel" icon={<PhoneIcon className="size-5" />} label="Phone">
                {clinic.data ? <PhoneLink phone={clinic.data.phone} className={LINK} /> : loading}
              </ClinicDetail>
              <ClinicDetail look="panel" icon={<MailIcon className="size-5" />} label="Email">
                {clinic.data ? (
                  <a href={`mailto:${clinic.data.email}`} className={LINK}>
                    {clinic.data.email}
                  </a>
                ) : (
                  loading
                )}
              </ClinicDetail>
              <ClinicDetail look="panel" icon={<PinIcon className="size-5" />} label="Address">
                {clinic.data ? clinic.data.address : loading}
              </ClinicDetail>
              <ClinicDetail
                look="panel"
                icon={<ClockIcon className="size-5" />}
                label="Opening hours"
              >
                {OPENING_HOURS}
              </ClinicDetail>
            </dl>
          </div>

          {/* POST, should it ever be sent without the app: the message goes nowhere rather
              than into an address. */}
          <form
            method="post"
            onSubmit={(event) => void onSubmit(event)}
            aria-labelledby="contact-title"
            className="relative rounded-box bg-base-100 p-5 text-base-content shadow-lift sm:p-8"
          >
            <div className="space-y-5">
              <ContactControl
                name="email"
                label="Email Address"
                problem={problem('email')}
                type="email"
                required
                autoComplete="email"
                placeholder="you@example.com"
              />
              <ContactControl
                name="subject"
                label="Subject"
                problem={problem('subject')}
                placeholder="e.g. Question about whitening"
                maxLength={CONTACT_SUBJECT_MAX}
              />
              <ContactControl
                name="message"
                label="Your Message"
                problem={problem('message')}
                rows={5}
                placeholder="How can we help?"
                maxLength={CONTACT_MESSAGE_MAX}
              />
              {/* Left empty by people, who never see it; bots fill it in (a honeypot). */}
              <div
                aria-hidden="true"
                className="absolute -left-[10000px] h-px w-px overflow-hidden"
              >
                <label htmlFor={websiteId}>Website</label>
                <input
                  id={websiteId}
                  name="website"
                  type="text"
                  tabIndex={-1}
                  autoComplete="off"
                  defaultValue=""
                />
              </div>
            </div>
            {/* No fade from the disabled look: below the fold the browser may not run it
                until the form is scrolled to, and it would read as faint text until then. */}
            <button
              type="submit"
              className="btn btn-primary btn-lg mt-6 w-full transition-none"
              disabled={send.isPending || !hydrated}
            >
              {send.isPending ? (
                <span className="loading loading-spinner loading-sm" aria-hidden="true" />
              ) : null}
              Submit
            </button>
            <p
              role="status"
              className={`mt-3 text-sm ${
                outcome?.kind === 'sent'
                  ? 'font-medium text-success'
                  : outcome?.kind === 'refused'
                    ? 'font-medium text-error'
                    : 'text-muted'
              }`}
            >
              {send.isPending ? 'Sending your message…' : (outcome?.note ?? '')}
            </p>
          </form>
        </div>
      </div>
    </section>
  );
}
