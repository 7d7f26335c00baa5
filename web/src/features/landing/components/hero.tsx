import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';
import { Glow } from '../../../components/glow';
// The first screen's largest picture comes inside the page (a data: address), painted with it.
import heroImg from '../assets/hero-chair.svg?inline';
import { CheckList } from './check-list';
import { ArrowIcon } from './icons';
import { Illustration } from './illustration';

const PROMISES = ['Same-week appointments', 'Open every day until 10 PM', 'Clear prices up front'];

/** The first thing a visitor sees: who we are and one obvious way to book. */
export function Hero() {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden bg-gradient-to-b from-mint via-base-200 to-base-100"
    >
      <Glow className="-right-32 -top-40 size-[34rem] rounded-full bg-primary/5" />
      <div className="container-page relative grid items-center gap-10 pb-28 pt-10 sm:pt-14 lg:grid-cols-[1.05fr_1fr] lg:gap-12 lg:pb-36 lg:pt-20">
        <div>
          <p className="eyebrow">Family &amp; cosmetic dentistry</p>
          <h1 id="hero-title" className="heading-1 mt-4 text-neutral">
            Your New Smile Starts Here!
          </h1>
          <p className="lead mt-6 max-w-xl">
            Check-ups, fillings, whitening and more from a friendly team that explains every step.
            Pick a time that suits you and we&rsquo;ll take care of the rest.
          </p>
          <div className="mt-8 flex flex-wrap items-center gap-3">
            <Link
              to={paths.appointment}
              className="btn btn-primary btn-lg w-full gap-2 px-7 shadow-soft sm:w-auto"
            >
              Get Started
              <ArrowIcon className="size-5" />
            </Link>
            <Link
              to="/#services"
              className="btn btn-ghost btn-lg w-full px-5 text-neutral hover:bg-white/70 sm:w-auto"
            >
              See our services
            </Link>
          </div>
          <CheckList points={PROMISES} look="hero" />
        </div>
        <div className="relative mx-auto w-full max-w-md lg:max-w-none">
          <Illustration
            src={heroImg}
            size={[560, 460]}
            alt="A modern dental treatment chair under a bright examination lamp"
            priority
          />
        </div>
      </div>
    </section>
  );
}
