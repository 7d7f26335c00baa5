import { AppointmentCta } from '../features/landing/components/appointment-cta';
import { CareHero } from '../features/landing/components/care-hero';
import { ContactSection } from '../features/landing/components/contact-section';
import { Hero } from '../features/landing/components/hero';
import { InfoStrip } from '../features/landing/components/info-strip';
import { ServicesSection } from '../features/landing/components/services-section';
import { TestimonialsSection } from '../features/landing/components/testimonials-section';

/**
 * The home page (/ and /home): the landing sections in the spec's order. The booking calendar
 * and the day's available appointments join here as further sections.
 */
export default function HomeRoute() {
  return (
    <>
      <Hero />
      <InfoStrip />
      <ServicesSection />
      <AppointmentCta />
      <CareHero />
      <TestimonialsSection />
      <ContactSection />
    </>
  );
}
