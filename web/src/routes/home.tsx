import { useRef } from 'react';
import { BookingSection } from '../features/booking/components/booking-section';
import { AppointmentCta } from '../features/landing/components/appointment-cta';
import { CareHero } from '../features/landing/components/care-hero';
import { ContactSection } from '../features/landing/components/contact-section';
import { Hero } from '../features/landing/components/hero';
import { InfoStrip } from '../features/landing/components/info-strip';
import { ServicesSection } from '../features/landing/components/services-section';
import { TestimonialsSection } from '../features/landing/components/testimonials-section';
import { useLaidOutWhenIdle } from '../lib/use-laid-out-when-idle';

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
 * paints each section below the fold only as it comes near the viewport (`render-when-visible`)
 * or, once the page has loaded, when it is idle; the booking section loads its calendar and the
 * day's treatments only as it comes near.
 */
export default function HomeRoute() {
  const below = useRef<HTMLDivElement>(null);
  useLaidOutWhenIdle(below, 'render-when-visible');
  return (
    <>
      <Hero />
      <InfoStrip />
      <div ref={below}>
        {BELOW_THE_FOLD.map(({ key, Section }) => (
          <div key={key} className="render-when-visible">
            <Section />
          </div>
        ))}
      </div>
    </>
  );
}
