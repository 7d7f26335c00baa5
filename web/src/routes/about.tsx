import { AboutPage } from '../features/landing/components/about-page';

/** /about: the clinic, how to book, and its policies. */
export default function AboutRoute() {
  return <AboutPage />;
}
