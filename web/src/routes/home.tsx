import { BookingSection } from '../features/booking/components/booking-section';
import { AppointmentCta } from '../features/landing/components/appointment-cta';
import { CareHero } from '../features/landing/components/care-hero';
import { ContactSection } from '../features/landing/components/contact-section';
import { Hero } from '../features/landing/components/hero';
import { InfoStrip } from '../features/landing/components/info-strip';
import { ServicesSection } from '../features/landing/components/services-section';
import { TestimonialsSection } from '../features/landing/components/testimonials-section';

/**
 * The home page (/ and /home): the spec's "booking page with the calendar and the landing
 * sections". The calendar and the day's treatments follow the hero and its info strip; the other
 * landing sections keep the spec's order.
 */
export default function HomeRoute() {
  return (
    <>
      <Hero />
      <InfoStrip />
      <BookingSection />
      <ServicesSection />
      <AppointmentCta />
      <CareHero />
      <TestimonialsSection />
      <ContactSection />
    </>
  );
}
