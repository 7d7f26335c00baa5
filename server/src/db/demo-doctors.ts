import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { systemActor } from '../audit/log.js';
import { insertDoctor } from '../doctors/repository.js';
import { AVATAR_SIZE } from '../images/process.js';
import type { ImageStorage } from '../images/storage.js';
import type { Database } from './schema.js';

/**
 * How a demo doctor's portrait is drawn: a background gradient from one colour to another, the
 * skin, hair and scrubs colours, and short hair or longer hair falling to the shoulders.
 */
type Portrait = [
  background: [from: string, to: string],
  skin: string,
  hair: string,
  scrubs: string,
  hairLength: 'short' | 'long',
];

/**
 * The doctors a new portal shows (issue 15: the default portal shows doctors as providers), one
 * a row: the treatment each performs (its name) and the days each works (0 = Sunday … 6 =
 * Saturday). Each performs one treatment, and no treatment has two of them, so every flow of the
 * spec (a booked slot leaves its treatment's card, its 'Spaces' count drops by one) behaves as
 * with one chair; Teeth Cleaning, Cavity Filling and Teeth Whitening keep no doctor, so they are
 * offered every open day as before. The others are offered on their doctor's work days.
 */
const DOCTORS = [
  { name: 'Dr. Maya Chen', specialty: 'Teeth Orthodontics', workDays: [1, 2, 3, 4, 5] },
  { name: 'Dr. Samuel Okafor', specialty: 'Oral Surgery', workDays: [2, 3, 4, 5, 6] },
  { name: 'Dr. Lucia Romero', specialty: 'Pediatric Dental', workDays: [0, 3, 4, 5, 6] },
  { name: 'Dr. Daniel Novak', specialty: 'Fluoride Treatment', workDays: [0, 1, 2, 3, 4, 5, 6] },
] as const;

/** Each demo doctor's portrait, by name. */
const PORTRAITS: Record<(typeof DOCTORS)[number]['name'], Portrait> = {
  'Dr. Maya Chen': [['#dbeafe', '#bfdbfe'], '#f1c8a5', '#1f1b1a', '#0f766e', 'long'],
  'Dr. Samuel Okafor': [['#dcfce7', '#bbf7d0'], '#8d5a3b', '#17110e', '#1d4ed8', 'short'],
  'Dr. Lucia Romero': [['#fce7f3', '#fbcfe8'], '#e0ac85', '#5b3a29', '#7c3aed', 'long'],
  'Dr. Daniel Novak': [['#fef3c7', '#fde68a'], '#f3d2b8', '#a16207', '#0e7490', 'short'],
};

/** 'Dr. Maya Chen' writes from maya.chen@clinic.example. */
function demoEmail(name: string): string {
  return `${name.replace(/^Dr\. /, '').replaceAll(' ', '.')}@clinic.example`.toLowerCase();
}

export const demoDoctors = DOCTORS.map(({ name, specialty, workDays }) => ({
  name,
  email: demoEmail(name),
  specialty,
  workDays: [...workDays],
  portrait: PORTRAITS[name],
}));

/** A friendly head-and-shoulders illustration in a white coat, as SVG. */
function portraitSvg([[from, to], skin, hair, scrubs, hairLength]: Portrait): string {
  const longHairBack =
    hairLength === 'long'
      ? `<path d="M160 230 Q150 120 256 108 Q362 120 352 230 L360 350 Q256 380 152 350 Z" fill="${hair}"/>`
      : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
  </linearGradient></defs>
  <rect width="512" height="512" fill="url(#bg)"/>
  ${longHairBack}
  <path d="M76 512 Q84 392 196 366 L316 366 Q428 392 436 512 Z" fill="#ffffff"/>
  <path d="M206 366 L256 440 L306 366 Z" fill="${scrubs}"/>
  <path d="M196 366 L236 512 L200 512 L150 392 Z M316 366 L276 512 L312 512 L362 392 Z" fill="#e5e7eb"/>
  <rect x="226" y="300" width="60" height="78" rx="24" fill="${skin}"/>
  <ellipse cx="256" cy="232" rx="92" ry="106" fill="${skin}"/>
  <path d="M164 222 Q160 124 256 118 Q352 124 348 222 Q330 168 256 160 Q196 164 164 222 Z" fill="${hair}"/>
  <circle cx="222" cy="240" r="9" fill="#1f2937"/>
  <circle cx="290" cy="240" r="9" fill="#1f2937"/>
  <path d="M222 284 Q256 310 290 284" stroke="#9f1239" stroke-width="8" fill="none" stroke-linecap="round"/>
  <path d="M340 400 Q360 450 330 470" stroke="#374151" stroke-width="7" fill="none"/>
  <circle cx="328" cy="474" r="12" fill="#374151"/>
</svg>`;
}

/** The portrait as the portal stores doctors' photos: a square WebP avatar. */
async function portraitWebp(portrait: Portrait): Promise<Buffer> {
  return sharp(Buffer.from(portraitSvg(portrait)))
    .resize(AVATAR_SIZE, AVATAR_SIZE)
    .webp({ quality: 82 })
    .toBuffer();
}

/**
 * Adds the demo doctors, with portraits drawn now and stored as uploads are, to a portal that
 * has never had a doctor nor a booking: a fresh database. Once any doctor was ever added (the
 * audit log keeps 'doctor.added' for good) or any booking made, it adds nothing, so the seed can
 * run at every start without bringing back a doctor the clinic removed, nor changing which
 * days a clinic in use offers. A doctor another instance added meanwhile is skipped.
 */
export async function seedDemoDoctors(
  db: Kysely<Database>,
  images: ImageStorage,
): Promise<{ inserted: number }> {
  const [doctor, added, booking] = await Promise.all([
    db.selectFrom('doctor').select('id').limit(1).executeTakeFirst(),
    db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'doctor.added')
      .limit(1)
      .executeTakeFirst(),
    db.selectFrom('booking').select('id').limit(1).executeTakeFirst(),
  ]);
  if (doctor || added || booking) return { inserted: 0 };
  const treatments = await db.selectFrom('treatment').select(['id', 'name']).execute();
  const photos = await Promise.all(demoDoctors.map((demo) => portraitWebp(demo.portrait)));
  let inserted = 0;
  for (const [index, demo] of demoDoctors.entries()) {
    const treatment = treatments.find((row) => row.name === demo.specialty);
    if (!treatment) continue; // the clinic renamed it before the first start: no doctor for it
    const name = `${randomUUID()}.webp`;
    await images.save(name, photos[index] as Buffer, 'image/webp');
    const id = await insertDoctor(
      db,
      {
        name: demo.name,
        email: demo.email,
        specialty: demo.specialty,
        image_url: images.urlOf(name),
        treatmentIds: [treatment.id],
        workDays: demo.workDays,
        daysOff: [],
      },
      systemActor('demo-seed'),
    );
    if (id) inserted += 1;
    else await images.remove(name);
  }
  return { inserted };
}
