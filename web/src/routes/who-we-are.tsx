import { WhoWeArePage } from '../features/landing/components/who-we-are-page';

/** /who-we-are: the spec's 'Who we are!' screen: the clinic's team and values. */
export default function WhoWeAreRoute() {
  return <WhoWeArePage />;
}
