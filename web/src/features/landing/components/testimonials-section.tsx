import { testimonials } from '../data/testimonials';
import { QuoteIcon } from './icons';

/** What patients say about us (anchor #review). */
export function TestimonialsSection() {
  return (
    <section id="review" aria-labelledby="review-title" className="section-y bg-base-200">
      <div className="container-page">
        <div className="flex items-end justify-between gap-6">
          <div className="max-w-2xl">
            <p className="eyebrow">Testimonial</p>
            <h2 id="review-title" className="heading-2 mt-3 text-neutral">
              What Our Patients Says
            </h2>
            <p className="lead mt-4">
              Kind words from people we see every week, shared with their permission.
            </p>
          </div>
          <QuoteIcon className="hidden size-24 shrink-0 text-primary/20 md:block" />
        </div>
        <ul className="mt-12 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {testimonials.map((testimonial) => (
            <li key={testimonial._id}>
              <figure className="flex h-full flex-col rounded-box bg-base-100 p-7 shadow-soft">
                <QuoteIcon className="size-7 text-primary" />
                <blockquote className="mt-4 flex-1 leading-relaxed text-base-content">
                  <p>{testimonial.body}</p>
                </blockquote>
                <figcaption className="mt-6 flex items-center gap-4 border-t border-base-300 pt-5">
                  <img
                    src={testimonial.img}
                    width={56}
                    height={56}
                    alt=""
                    loading="lazy"
                    className="size-14 rounded-full ring-2 ring-primary ring-offset-2 ring-offset-base-100"
                  />
                  <div>
                    <h3 className="font-semibold text-neutral">{testimonial.name}</h3>
                    <p className="text-sm text-muted">{testimonial.location}</p>
                  </div>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
