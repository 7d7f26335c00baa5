import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';
import careImg from '../assets/care-dentist.svg';
import { CheckList } from './check-list';
import { Illustration } from './illustration';

const POINTS = [
  'Evening and weekend visits, every day of the week',
  'A written plan and price before any treatment starts',
  'Extra time and gentle numbing for nervous patients',
];

/** The second hero: how the clinic fits care around the patient. */
export function CareHero() {
  return (
    <section aria-labelledby="care-title" className="section-y">
      <div className="container-page grid items-center gap-12 lg:grid-cols-2 lg:gap-16">
        <div className="relative isolate mx-auto w-full max-w-md lg:max-w-none">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 translate-x-4 translate-y-4 rounded-[2rem] bg-accent sm:translate-x-6 sm:translate-y-6"
          />
          <Illustration
            src={careImg}
            size={[520, 520]}
            alt="A smiling dentist in a white coat with a stethoscope"
            className="rounded-[2rem] shadow-lift"
          />
        </div>
        <div>
          <p className="eyebrow">Why patients choose us</p>
          <h2 id="care-title" className="heading-2 mt-3 text-neutral">
            Exceptional Dental Care, on Your Terms!
          </h2>
          <p className="lead mt-5">
            Good dentistry should fit into your life, not the other way round. We keep our evenings
            open, explain your options without pressure and agree on a plan together, so you always
            know what comes next and what it costs.
          </p>
          <CheckList points={POINTS} look="care" />
          <Link to={paths.whoWeAre} className="btn btn-primary btn-lg mt-9 px-7">
            Meet our team
          </Link>
        </div>
      </div>
    </section>
  );
}
