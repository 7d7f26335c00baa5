import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';
import { useSignInWithGoogle } from '../../../api/clinic';
import { PageHeader } from './page-header';
import { PageSection } from './page-section';
import { VisitCard } from './visit-card';

const APPROACH = [
  {
    title: 'One team, one plan',
    text: 'Your dentist, hygienist and assistant look at your records together before each visit, so everyone knows your history and nobody asks you the same question twice.',
  },
  {
    title: 'Prevention first',
    text: 'Regular check-ups, cleaning and fluoride keep small problems small. We only suggest treatment you need, and we tell you when it can safely wait.',
  },
  {
    title: 'Clear about costs',
    text: 'Every treatment has a published price. You see it when you book, and we agree a written plan with you before anything bigger begins.',
  },
];

/** How a patient books, first to last; the first step names Google only where it is offered. */
const stepsOfBooking = (signInWithGoogle: boolean) => [
  {
    title: 'Sign in or create an account',
    text: `Use your email address${signInWithGoogle ? ' or your Google account' : ''}. New patients are set up in a minute.`,
  },
  {
    title: 'Pick a day and a treatment',
    text: 'The calendar shows each treatment with the slots still free on that day.',
  },
  {
    title: 'Choose your slot',
    text: 'Add a phone number and your age, confirm, and the time is yours. You get a confirmation on screen straight away.',
  },
  {
    title: 'Pay securely by card',
    text: 'Your appointments are listed in your dashboard, where you can pay securely by card ahead of your visit.',
  },
];

const POLICIES = [
  {
    id: 'privacy',
    title: 'Privacy policy',
    text: 'We keep your name, contact details and appointments only to provide your care and run your bookings. Card details go straight to our payment provider and never reach our servers. We do not sell or share your data for marketing. You can ask for a copy of your data, or for it to be deleted, at the front desk or by email.',
  },
  {
    id: 'terms',
    title: 'Terms of care',
    text: 'Please let us know at least 24 hours ahead if you cannot make an appointment, so the slot can go to another patient. Prices shown when you book are the prices you pay for that treatment; if your dentist recommends further work, you will receive a written plan and estimate first.',
  },
  {
    id: 'cookies',
    title: 'Cookie policy',
    text: 'The portal uses only what it needs to keep you signed in and to remember your session. There are no advertising or tracking cookies.',
  },
  {
    id: 'accessibility',
    title: 'Accessibility',
    text: 'The portal can be used with a keyboard and a screen reader, and our clinic has step-free access and an accessible treatment room. If anything gets in your way, tell us and we will help you book by phone.',
  },
];

/** A list item's number in a circle: filled for the approach's points, outlined for the steps. */
function StepNumber({ number, look }: { number: number; look: 'filled' | 'outlined' }) {
  const tint =
    look === 'filled'
      ? 'size-10 bg-primary text-primary-content'
      : 'size-9 border-2 border-primary text-primary';
  return (
    <span className={`grid shrink-0 place-items-center rounded-full font-bold ${tint}`}>
      {number}
    </span>
  );
}

/** The clinic, how to book, and its policies. */
export function AboutPage() {
  const steps = stepsOfBooking(useSignInWithGoogle());
  return (
    <>
      <PageHeader eyebrow="About us" title="About Doctors Portal">
        <p>
          Doctors Portal is a neighbourhood dental clinic with a simple idea: good dental care
          should be easy to book, easy to understand and gentle from the first visit. Our online
          portal lets you book, follow and pay for your appointments whenever it suits you.
        </p>
      </PageHeader>

      <PageSection titleId="approach-title" title="How we work" className="section-y pt-8 sm:pt-10">
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {APPROACH.map((item, index) => (
            <li key={item.title} className="rounded-box bg-base-200 p-7">
              <StepNumber number={index + 1} look="filled" />
              <h3 className="heading-3 mt-5 text-neutral">{item.title}</h3>
              <p className="mt-3 leading-relaxed text-muted">{item.text}</p>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection
        titleId="booking-title"
        title="How to book"
        className="bg-base-200 section-y"
        intro={
          <>
            Book online at any hour, or call us during opening hours and we&rsquo;ll find a time
            with you.
          </>
        }
        aside={
          <div className="lg:pt-2">
            <VisitCard />
          </div>
        }
      >
        <ol className="mt-8 space-y-6">
          {steps.map((step, index) => (
            <li key={step.title} className="flex gap-4">
              <StepNumber number={index + 1} look="outlined" />
              <div>
                <h3 className="font-semibold text-neutral">{step.title}</h3>
                <p className="mt-1 leading-relaxed text-muted">{step.text}</p>
              </div>
            </li>
          ))}
        </ol>
        <p className="mt-8 text-muted">
          New here?{' '}
          <Link to={paths.signup} className="link link-primary font-semibold">
            Create your patient account
          </Link>
          . Want to know the people behind the clinic?{' '}
          <Link to={paths.whoWeAre} className="link link-primary font-semibold">
            Meet the team
          </Link>
          .
        </p>
      </PageSection>

      <PageSection titleId="policies-title" title="Policies" className="section-y">
        <div className="mt-8 grid gap-x-12 gap-y-10 md:grid-cols-2">
          {POLICIES.map((policy) => (
            <article key={policy.id} id={policy.id} aria-labelledby={`${policy.id}-title`}>
              <h3 id={`${policy.id}-title`} className="heading-3 text-neutral">
                {policy.title}
              </h3>
              <p className="mt-3 leading-relaxed text-muted">{policy.text}</p>
            </article>
          ))}
        </div>
      </PageSection>
    </>
  );
}
