import { slotsBetween } from '@doctors-portal/contract';
import type { NewTreatment } from './schema.js';

/**
 * The clinic's treatments as a new portal offers them. Every slot lies inside the opening
 * hours (10:00 AM to 10:00 PM); prices are integer cents.
 */
const treatments: Array<{ id: string; name: string; price_cents: number; slots: string[] }> = [
  {
    id: 'teeth-cleaning',
    name: 'Teeth Cleaning',
    price_cents: 8000,
    slots: [...slotsBetween('10:00 AM', '1:00 PM', 30), ...slotsBetween('5:00 PM', '8:00 PM', 30)],
  },
  {
    id: 'fluoride-treatment',
    name: 'Fluoride Treatment',
    price_cents: 4500,
    slots: slotsBetween('10:00 AM', '12:00 PM', 30),
  },
  {
    id: 'cavity-filling',
    name: 'Cavity Filling',
    price_cents: 15000,
    slots: slotsBetween('11:00 AM', '5:00 PM', 60),
  },
  {
    id: 'teeth-whitening',
    name: 'Teeth Whitening',
    price_cents: 25000,
    slots: slotsBetween('2:00 PM', '9:00 PM', 60),
  },
  {
    id: 'teeth-orthodontics',
    name: 'Teeth Orthodontics',
    price_cents: 12000,
    slots: slotsBetween('10:00 AM', '4:00 PM', 60),
  },
  {
    id: 'oral-surgery',
    name: 'Oral Surgery',
    price_cents: 40000,
    slots: slotsBetween('10:00 AM', '2:00 PM', 90),
  },
  {
    id: 'pediatric-dental',
    name: 'Pediatric Dental',
    price_cents: 7000,
    slots: slotsBetween('3:00 PM', '7:00 PM', 30),
  },
];

export const demoTreatments: NewTreatment[] = treatments.map((treatment, index) => ({
  ...treatment,
  slots: JSON.stringify(treatment.slots),
  sort_order: index + 1,
}));
