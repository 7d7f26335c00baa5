import { paths } from '@doctors-portal/contract';
import { Link } from 'react-router';
import { services } from '../data/services';

const ALT: Record<number, string> = {
  1: 'A tooth shielded by a protective fluoride coat',
  2: 'A tooth with a neat tooth-coloured filling',
  3: 'A bright white tooth with sparkles',
};

/** The three treatments the landing page introduces, each with a way to book it. */
export function ServicesSection() {
  return (
    <section id="services" aria-labelledby="services-title" className="section-y">
      <div className="container-page">
        <div className="mx-auto max-w-2xl text-center">
          <p className="eyebrow">Our Services</p>
          <h2 id="services-title" className="heading-2 mt-3 text-neutral">
            Services We Provide
          </h2>
          <p className="lead mt-4">
            Preventive care, repairs and cosmetic treatments under one roof, planned around you and
            explained in plain words.
          </p>
        </div>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => (
            <li
              key={service._id}
              id={`service-${service._id}`}
              className="group flex flex-col items-center rounded-box border border-base-300 bg-base-100 p-7 text-center shadow-soft transition-shadow hover:shadow-lift sm:last:col-span-2 sm:last:mx-auto sm:last:max-w-md lg:last:col-span-1 lg:last:max-w-none sm:p-8"
            >
              <div className="grid size-32 place-items-center rounded-full bg-mint">
                <img
                  src={service.img}
                  width={96}
                  height={96}
                  alt={ALT[service._id] ?? ''}
                  loading="lazy"
                  className="size-24"
                />
              </div>
              <h3 id={`service-${service._id}-name`} className="heading-3 mt-6 text-neutral">
                {service.name}
              </h3>
              <p className="mt-3 flex-1 leading-relaxed text-muted">{service.describe}</p>
              <Link
                to={`${paths.appointment}?treatment=${encodeURIComponent(service.name)}`}
                aria-describedby={`service-${service._id}-name`}
                className="btn btn-outline btn-primary mt-6 px-6"
              >
                get the service
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
