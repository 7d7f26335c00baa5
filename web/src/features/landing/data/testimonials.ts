import avatarDaniel from '../assets/avatar-daniel.svg';
import avatarMaya from '../assets/avatar-maya.svg';
import avatarSofia from '../assets/avatar-sofia.svg';

/** A patient's words on the landing page (spec section 3: _id, name, body, location, img). */
export interface Testimonial {
  _id: number;
  name: string;
  body: string;
  location: string;
  img: string;
}

export const testimonials: Testimonial[] = [
  {
    _id: 1,
    name: 'Maya Thompson',
    body: 'I used to put off the dentist for years. The team explained every step before they started, and my filling was done before I had time to worry. I actually look forward to my check-ups now.',
    location: 'Springfield',
    img: avatarMaya,
  },
  {
    _id: 2,
    name: 'Daniel Okafor',
    body: 'Booking online took a minute and I had a slot the same week. The whitening result looks natural, and they told me honestly what to expect from the start.',
    location: 'Riverside',
    img: avatarDaniel,
  },
  {
    _id: 3,
    name: 'Sofia Alvarez',
    body: 'Both of my kids get their fluoride treatment here. The hygienists are patient and kind, and the evening hours mean nobody has to miss school or work.',
    location: 'Lakeview',
    img: avatarSofia,
  },
];
