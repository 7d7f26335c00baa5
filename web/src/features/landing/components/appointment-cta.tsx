import { paths } from '@doctors-portal/contract';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { clinicQuery } from '../../../api/clinic';
import { Glow } from '../../../components/glow';
import { PhoneLink } from '../../../components/phone-link';
import calendarImg from '../assets/appointment-calendar.svg';
import { PhoneIcon } from './icons';
import { Illustration } from './illustration';

const inlineLink =
  'font-semibold text-white underline decoration-[#7dd3c8] decoration-2 underline-offset-4 hover:decoration-white';

/** The call to book: by phone or online, for existing and new patients (anchor #appointment). */
export function AppointmentCta() {
  const clinic = useQuery(clinicQuery);

  return (
    <section
      id="appointment"
      aria-labelledby="appointment-title"
      className="on-dark relative overflow-hidden bg-neutral text-neutral-content"
    >
      <Glow className="-left-24 top-1/2 size-[28rem] -translate-y-1/2 rounded-full bg-primary/25 blur-3xl" />
      <div className="container-page relative grid items-center gap-10 py-16 sm:py-20 lg:grid-cols-[0.9fr_1.1fr] lg:gap-16">
        <div className="order-last mx-auto w-full max-w-sm lg:order-first lg:max-w-md">
          <Illustration
            src={calendarImg}
            size={[440, 380]}
            alt="A calendar with a booked visit, a clock and a phone"
          />
        </div>
        <div>
          <p className="text-sm font-semibold uppercase tracking-[0.14em] text-[#7dd3c8]">
            Appointment
          </p>
          <h2 id="appointment-title" className="heading-2 mt-3 text-white">
            Make an Appointment Today
          </h2>
          <p className="mt-5 text-lg leading-relaxed text-mist">
            Schedule your visit by phone or online, whichever fits your day. Pick a treatment,
            choose a free slot and you&rsquo;re booked in under a minute.
          </p>
          <ul className="mt-6 space-y-3 leading-relaxed text-mist">
            <li>
              <span className="font-semibold text-white">Already a patient?</span>{' '}
              <Link to={paths.login} className={inlineLink}>
                Sign in to your patient account
              </Link>{' '}
              to book, see your visits and pay online.
            </li>
            <li>
              <span className="font-semibold text-white">New to the clinic?</span>{' '}
              <Link to={paths.signup} className={inlineLink}>
                Open your new-patient portal
              </Link>{' '}
              and book your first visit straight away.
            </li>
          </ul>
          <div className="mt-8 flex flex-wrap items-center gap-3">
            <Link to={paths.appointment} className="btn btn-primary btn-lg px-7">
              Book an Appointment
            </Link>
            {clinic.data ? (
              <PhoneLink
                phone={clinic.data.phone}
                className="btn btn-lg btn-outline gap-2 border-white/40 text-white hover:border-white hover:bg-white/10"
              >
                <PhoneIcon className="size-5" />
                Call {clinic.data.phone}
              </PhoneLink>
            ) : null}
          </div>
        </div>
      </div>
    </section>
  );
}
