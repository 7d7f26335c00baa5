import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';
import careImg from '../assets/care-dentist.svg';
import { PageHeader } from './page-header';
import { PageSection } from './page-section';
import { VisitCard } from './visit-card';

const TEAM = [
  {
    role: 'Dentists',
    text: 'Our general and cosmetic dentists examine, diagnose and treat, from fillings and root canals to whitening and crowns. They talk you through the options before they start.',
  },
  {
    role: 'Dental hygienists',
    text: 'Hygienists clean, polish and apply fluoride, and show you the small daily habits that keep teeth and gums healthy between visits.',
  },
  {
    role: 'Dental nurses',
    text: 'Nurses prepare every room and instrument to strict sterilisation standards and stay beside you throughout your treatment.',
  },
  {
    role: 'Patient coordinators',
    text: 'The front desk team answers your calls and emails, arranges your bookings and explains prices and payment, before and after your visit.',
  },
];

const VALUES = [
  {
    title: 'Kindness',
    text: 'Nervous patients get extra time, and nobody is judged for a long gap.',
  },
  { title: 'Honesty', text: 'We recommend only what you need and say plainly what it costs.' },
  { title: 'Safety', text: 'Sterile instruments, checked equipment and up-to-date training.' },
  { title: 'Access', text: 'Open every day until 10 PM, with online booking at any hour.' },
];

/** The spec's 'Who we are!' screen: the clinic's team and values. */
export function WhoWeArePage() {
  return (
    <>
      <PageHeader eyebrow="Our team" title="Who we are!">
        <p>
          We are a team of dentists, hygienists, nurses and coordinators who share one goal: care
          that leaves you comfortable, informed and smiling. We work as one team around each
          patient, from your first call to your follow-up.
        </p>
      </PageHeader>

      <PageSection
        titleId="team-title"
        title="The people who look after you"
        className="section-y pt-8 sm:pt-10"
        asideLayout="items-start gap-12 lg:grid-cols-[1.5fr_1fr] lg:gap-14"
        aside={
          <img
            src={careImg}
            width={520}
            height={520}
            alt="A smiling dentist in a white coat with a stethoscope"
            className="mx-auto h-auto w-full max-w-sm rounded-[2rem] shadow-lift lg:mt-16 lg:max-w-none"
          />
        }
      >
        <ul className="mt-8 grid gap-5 sm:grid-cols-2">
          {TEAM.map((member) => (
            <li key={member.role} className="rounded-box border border-base-300 p-6">
              <h3 className="heading-3 text-neutral">{member.role}</h3>
              <p className="mt-2 leading-relaxed text-muted">{member.text}</p>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection
        titleId="values-title"
        title="What we stand for"
        className="section-y bg-base-200"
      >
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {VALUES.map((value) => (
            <li key={value.title} className="rounded-box bg-base-100 p-6 shadow-soft">
              <h3 className="heading-3 text-primary">{value.title}</h3>
              <p className="mt-2 leading-relaxed text-muted">{value.text}</p>
            </li>
          ))}
        </ul>
      </PageSection>

      <PageSection
        titleId="next-title"
        title="Come and meet us"
        className="section-y"
        intro={
          <>
            Your first visit starts with a conversation: what brings you in, what worries you and
            what you would like from your smile. Then we examine, explain what we see and agree the
            next steps together.
          </>
        }
        aside={<VisitCard />}
      >
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to={paths.appointment} className="btn btn-primary btn-lg px-7">
            Book your first visit
          </Link>
          <Link to="/#who-we-are" className="btn btn-outline btn-primary btn-lg px-7">
            Send us a message
          </Link>
        </div>
      </PageSection>
    </>
  );
}
