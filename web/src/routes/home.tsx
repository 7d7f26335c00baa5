import { BookingSection } from '../features/booking/components/booking-section';
import { AppointmentCta } from '../features/landing/components/appointment-cta';
import { CareHero } from '../features/landing/components/care-hero';
import { ContactSection } from '../features/landing/components/contact-section';
import { Hero } from '../features/landing/components/hero';
import { InfoStrip } from '../features/landing/components/info-strip';
import { ServicesSection } from '../features/landing/components/services-section';
import { TestimonialsSection } from '../features/landing/components/testimonials-section';

/** The sections below the hero and its info strip, in the spec's order. */
const BELOW_THE_FOLD = [
  { key: 'booking', Section: BookingSection },
  { key: 'services', Section: ServicesSection },
  { key: 'appointment', Section: AppointmentCta },
  { key: 'care', Section: CareHero },
  { key: 'testimonials', Section: TestimonialsSection },
  { key: 'contact', Section: ContactSection },
];

/**
 * The home page (/ and /home): the spec's "booking page with the calendar and the landing
 * sections". The calendar and the day's treatments follow the hero and its info strip; the other
 * landing sections keep the spec's order.
 *
 * On a phone the page's first seconds go to what is on screen: the browser styles, lays out and
 * paints each section below the fold only as it comes near the viewport (`render-when-visible`),
 * and the booking section loads its calendar and the day's treatments only then.
 */
export default function HomeRoute() {
  return (
    <>
      <Hero />
      <InfoStrip />
      {BELOW_THE_FOLD.map(({ key, Section }) => (
        <div key={key} className="render-when-visible">
          <Section />
        </div>
      ))}
    </>
  );
}
