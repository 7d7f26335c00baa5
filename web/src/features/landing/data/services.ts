import cavityImg from '../assets/service-cavity.svg';
import fluorideImg from '../assets/service-fluoride.svg';
import whiteningImg from '../assets/service-whitening.svg';

/** A service shown on the landing page (spec section 3: _id, name, describe, img). */
export interface LandingService {
  _id: number;
  name: string;
  describe: string;
  img: string;
}

export const services: LandingService[] = [
  {
    _id: 1,
    name: 'Fluoride Treatment',
    describe:
      'A quick, painless varnish that hardens enamel and protects against decay. It takes a few minutes at your check-up and suits children and adults alike.',
    img: fluorideImg,
  },
  {
    _id: 2,
    name: 'Cavity Filling',
    describe:
      'We remove decay gently, with numbing that actually works, and restore the tooth with a tooth-coloured filling that blends in and lasts for years.',
    img: cavityImg,
  },
  {
    _id: 3,
    name: 'Teeth Whitening',
    describe:
      'Professional whitening lifts coffee, tea and age stains safely. We record your shade before and after, so the result stays bright and natural.',
    img: whiteningImg,
  },
];
