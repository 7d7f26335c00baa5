import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { formatMediumDate, IMAGE_MAX_BYTES } from '@doctors-portal/contract';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visitLinkSignerOf } from '../src/visits/mail-links.js';
import { signUp } from './accounts.js';
import { multipartBody, photoPng } from './admin-fixtures.js';
import { clinicDay, mediumDay, nextClinicDate } from './dates.js';
import { engine } from './helper.js';
import { failedMail } from './mail-fixtures.js';
import { apiRoutes, type RegisteredRoute, routeKey } from './routes.js';
import {
  buildSecurityFixtures,
  DECLINED_CARD,
  type SecurityFixtures,
  uploadPhoto,
} from './security-fixtures.js';

/**
 * Bad-input fuzzing: every route the server registers gets thousands of generated requests
 * (wrong types, huge strings, unicode with lone surrogates, RTL marks and NULs, nulls, extra
 * fields, deep nesting, malformed JSON, wrong content types, garbage headers and credentials),
 * as an anonymous visitor, a patient and an administrator. No answer may be a 5xx, every 4xx
 * must carry a JSON `message` a person can read, and the server must still answer afterwards.
 */

const STRIPE_ENV = {
  STRIPE_SECRET_KEY: 'sk_test_fuzz',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fuzz',
  STRIPE_WEBHOOK_SECRET: 'whsec_fuzz',
};

/** How many generated requests each route gets; the whole file stays within about a minute. */
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

/** Words a careless error message would leak: engine errors, stack frames, object dumps. */
const INTERNALS =
  /SQLITE_|sqlite3|duplicate key value|violates|syntax error at|\n\s+at |\[object Object\]/i;

let sent = 0;
const byStatus = new Map<number, number>();
const messagesSeen = new Set<string>();

/** The answer must not be a 5xx, and a 4xx must say in JSON what was wrong. */
function judge(request: InjectOptions, response: LightMyRequestResponse): void {
  sent += 1;
  const status = response.statusCode;
  byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  const shown = () =>
    `${request.method} ${String(request.url).slice(0, 200)} → ${status} ${response.body.slice(0, 300)}`;
  if (status >= 500) throw new Error(`server error: ${shown()}`);
  // Whatever the request, the answer carries the security headers.
  if (response.headers['x-content-type-options'] !== 'nosniff') {
    throw new Error(`an answer without the security headers: ${shown()}`);
  }
  if (status < 400 || request.method === 'HEAD') return;
  if (!String(response.headers['content-type']).includes('application/json')) {
    throw new Error(`a ${status} that is not JSON: ${shown()}`);
  }
  let message: unknown;
  try {
    message = (JSON.parse(response.body) as { message?: unknown }).message;
  } catch {
    throw new Error(`a ${status} whose JSON does not parse: ${shown()}`);
  }
  if (typeof message !== 'string' || message.trim() === '') {
    throw new Error(`a ${status} without a message: ${shown()}`);
  }
  if (INTERNALS.test(message)) throw new Error(`a ${status} that leaks internals: ${shown()}`);
  messagesSeen.add(`${status} ${message.slice(0, 80)}`);
}

// ---------------------------------------------------------------------------------------------
// Generators

const NASTY = [
  '',
  ' ',
  'null',
  'undefined',
  'NaN',
  '-1',
  '0',
  '1e309',
  '1e20',
  '9223372036854775808',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  '../../../../etc/passwd',
  "' OR 1=1 --",
  '"; DROP TABLE booking; --',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template injection probe.
  '${7*7}{{7*7}}',
  '%00',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uD83D',
  '\u202Eevil.exe',
  '\u200F\u05E9\u05DC\u05D5\u05DD',
  'مرحبا',
  '𝕳𝖊𝖑𝖑𝖔 🦷',
  'Z̷̢̛̭a̶̗͂l̸̟̈g̷͔̈́o̵̰̾',
  '\r\nSet-Cookie: x=1',
  'Jan 5, 2022',
  'Feb 30, 2031',
  'Dec 31, 9999',
  '10:00 AM - 10:30 AM',
  '25:99 PM - 26:00 PM',
  'pi_demo_x_secret_y',
  'pi_',
];

const hugeString = fc
  .tuple(
    fc.integer({ min: 1_000, max: 100_000 }),
    fc.constantFrom('x', 'é', '🦷', '\u0000', '\uD800'),
  )
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

const weirdString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.constantFrom('\uD800', '\uDC00', '\u202E', '\u0000', 'a'),
      maxLength: 20,
    }),
  },
  { weight: 1, arbitrary: hugeString },
);

/** '[[[…]]]' or '{"a":{"a":…}}' nested `depth` deep, as JSON text. */
const nestedJson = (depth: number, kind: 'array' | 'object') =>
  kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

function nestedValue(depth: number): unknown {
  let value: unknown = [];
  for (let level = 1; level < depth; level += 1) value = [value];
  return value;
}

const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: weirdString },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.boolean() },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.integer(),
      fc.double(),
      fc.constantFrom(-0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1 + 0.2, 80, 80.0001),
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.integer({ min: 2, max: 1200 }).map(nestedValue) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom('__proto__', 'constructor', 'toString', 'a'),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  },
);

/** Percent-encodes a string's UTF-8 bytes (lone surrogates become U+FFFD, as a browser does). */
const encode = (value: string) =>
  [...Buffer.from(value, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** A path or query piece: encoded weird strings, or raw bytes a client should not send. */
const urlPiece = (plausible: string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...plausible.map(encode)) },
    { weight: 4, arbitrary: weirdString.map((value) => encode(value.slice(0, 4000))) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '%ED%A0%80',
        '%FF%FE',
        '%C0%AF',
        '..',
        '%2e%2e%2f',
        '%00',
        '%E2%80%AE',
        'a%2Fb',
        '%25',
      ),
    },
  );

/** Header values a client may send: any byte a header can carry (no CR or LF), up to 16 KB. */
const headerValue = fc.oneof(
  fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength: 60,
  }),
  fc.constantFrom(
    '',
    'null',
    'Bearer',
    'Bearer ',
    'Basic YWRtaW46YWRtaW4=',
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
  ),
  fc.integer({ min: 100, max: 16_000 }).map((length) => 'A'.repeat(length)),
);

type Credential = 'anon' | 'patient' | 'admin' | 'cookie' | 'garbage';
const credential = fc.constantFrom<Credential>('anon', 'patient', 'admin', 'cookie', 'garbage');

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'application/xml',
  'application/octet-stream',
  'application/vnd.api+json',
  'application/json;;;',
  '*/*',
  'garbage',
];

interface Body {
  payload?: string | Buffer;
  contentType?: string;
}

/** A body for a route whose valid body is `template`: mostly near-valid, sometimes anything. */
function bodyFor(template: Record<string, unknown> | undefined): fc.Arbitrary<Body> {
  const base = template ?? {};
  const keys = Object.keys(base);
  const json = (value: unknown) => ({
    payload: JSON.stringify(value),
    contentType: 'application/json',
  });
  const mutated = fc
    .tuple(fc.constantFrom(...keys, 'extra', '__proto__', 'constructor'), weirdValue, fc.boolean())
    .map(([key, value, remove]) => {
      const copy: Record<string, unknown> = { ...base };
      if (remove) delete copy[key];
      else if (key === '__proto__')
        return `{${JSON.stringify(base).slice(1, -1)}${keys.length ? ',' : ''}"__proto__":${JSON.stringify(value) ?? 'null'}}`;
      else copy[key] = value;
      return JSON.stringify(copy);
    })
    .map((payload) => ({ payload, contentType: 'application/json' }));
  const extras = fc
    .dictionary(
      weirdString.map((key) => key.slice(0, 100)),
      weirdValue,
      { maxKeys: 20 },
    )
    .map((extra) => json({ ...base, ...extra }));
  const malformed = fc
    .oneof(
      fc.constantFrom(
        '{',
        '{"a":',
        '[1,]',
        "{'a':1}",
        '{"a":1}}',
        'nul',
        '\uFEFF{}',
        '{"a":"\\uD800"}',
        '{"a":NaN}',
        '1e99999',
        '"',
        '{"a":1,"a":2}',
      ),
      fc.string({ maxLength: 200 }).map((text) => `{${text}`),
      fc.string({ unit: 'binary', maxLength: 200 }),
    )
    .map((payload) => ({ payload, contentType: 'application/json' }));
  const nested = fc
    .tuple(
      fc.integer({ min: 2, max: 200_000 }),
      fc.constantFrom<'array' | 'object'>('array', 'object'),
    )
    .map(([depth, kind]) => ({
      payload: nestedJson(depth, kind),
      contentType: 'application/json',
    }));
  const wrongType = fc
    .tuple(
      fc.constantFrom(...CONTENT_TYPES),
      fc.oneof(fc.constant(JSON.stringify(base)), weirdString),
    )
    .map(([contentType, payload]) => ({ contentType, payload }));
  const multipartGarbage = fc
    .tuple(fc.string({ unit: 'binary-ascii', maxLength: 300 }), fc.boolean())
    .map(([garbage, framed]) => ({
      contentType: 'multipart/form-data; boundary=xyz',
      payload: framed
        ? `--xyz\r\ncontent-disposition: form-data; name="image"; filename="${garbage.slice(0, 20)}"\r\n\r\n${garbage}\r\n--xyz--\r\n`
        : garbage,
    }));
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 2, arbitrary: extras },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(json) },
    { weight: 2, arbitrary: malformed },
    { weight: 1, arbitrary: nested },
    { weight: 2, arbitrary: wrongType },
    { weight: 1, arbitrary: multipartGarbage },
    { weight: 1, arbitrary: fc.constant<Body>({}) },
    { weight: 1, arbitrary: fc.constant<Body>({ payload: '', contentType: 'application/json' }) },
  );
}

/** An upload form for POST /api/image: real framing around anything, or a real photo. */
function imageBody(photo: Buffer): fc.Arbitrary<Body> {
  const form = fc
    .tuple(
      fc.oneof(
        fc.uint8Array({ maxLength: 2000 }).map((bytes) => Buffer.from(bytes)),
        fc.nat({ max: photo.length }).map((cut) => photo.subarray(0, cut)),
        fc.constant(photo),
        fc.constantFrom(
          Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
          Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0]),
          Buffer.from('RIFF\0\0\0\0WEBPVP8 '),
        ),
      ),
      fc.constantFrom('image', 'photo', 'image[]', ''),
      fc.oneof(
        fc.constantFrom('a.png', '../../x.png', 'a.svg', ''),
        weirdString.map((name) => name.slice(0, 50).replace(/["\r\n]/g, '')),
      ),
      fc.constantFrom('image/png', 'image/svg+xml', 'text/html', 'application/octet-stream'),
      fc.dictionary(fc.constantFrom('name', 'image', 'x'), fc.string({ maxLength: 2000 }), {
        maxKeys: 3,
      }),
    )
    .map(([data, field, filename, contentType, fields]) => {
      const body = multipartBody([{ field, filename, contentType, data }], fields);
      return { payload: body.payload, contentType: body.headers['content-type'] };
    });
  return fc.oneof({ weight: 3, arbitrary: form }, { weight: 2, arbitrary: bodyFor(undefined) });
}

// ---------------------------------------------------------------------------------------------

describe(`bad-input fuzzing (${engine})`, () => {
  let demo: SecurityFixtures;
  let stripe: SecurityFixtures;
  let photo: Buffer;
  const started = Date.now();

  /** Ids of closures and Contact Us messages that exist, for the routes that take one. */
  const realIds = new Map<
    SecurityFixtures,
    { closures: string[]; messages: string[]; feeds: string[]; failures: string[] }
  >();

  /**
   * Three closures far from every booking (each can be removed once) and two Contact Us
   * messages, and a doctor's calendar feed, made through the API, so that the routes that take
   * their ids reach their answers past the 404.
   */
  async function addClosuresAndMessages(f: SecurityFixtures): Promise<void> {
    const admin = { authorization: `Bearer ${f.people.admin.token}` };
    const closures: string[] = [];
    for (const offset of [710, 712, 714]) {
      const response = await f.t.app.inject({
        method: 'POST',
        url: '/api/closures',
        headers: admin,
        payload: { from: clinicDay(offset), to: clinicDay(offset + 1), label: 'Fuzz closure' },
      });
      expect(response.statusCode, response.body).toBe(201);
      closures.push((response.json() as { id: string }).id);
    }
    for (const subject of ['Fuzz question 1', 'Fuzz question 2']) {
      const response = await f.t.app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: '10.99.0.2',
        payload: { email: 'visitor@mail.com', subject, message: 'Hello', website: '' },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const listed = await f.t.app.inject({
      method: 'GET',
      url: '/api/contact-messages?limit=200',
      headers: admin,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const messages = (listed.json() as Array<{ _id: string; subject: string }>)
      .filter((message) => message.subject.startsWith('Fuzz question'))
      .map((message) => message._id);
    expect(messages).toHaveLength(2);
    // A doctor's calendar feed, its file name as the feed's address ends ('{token}.ics').
    const feed = await f.t.app.inject({
      method: 'POST',
      url: `/api/doctor/${f.doctor.id}/calendar-feed`,
      headers: admin,
    });
    expect(feed.statusCode, feed.body).toBe(200);
    const feeds = [String((feed.json() as { url: string }).url.split('/').at(-1))];
    // Two messages the sender gave up on, for the failed-mail routes.
    const failures = [await failedMail(f.t.db), await failedMail(f.t.db)];
    realIds.set(f, { closures, messages, feeds, failures });
  }

  beforeAll(async () => {
    demo = await buildSecurityFixtures();
    stripe = await buildSecurityFixtures(STRIPE_ENV);
    photo = await photoPng(48, 48);
    await addClosuresAndMessages(demo);
    await addClosuresAndMessages(stripe);
  }, 60_000);

  afterAll(async () => {
    const statuses = [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    const fivexx = [...byStatus.entries()].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
    // biome-ignore lint/suspicious/noConsole: the figures are the point of this suite.
    console.log(
      `bad-input fuzzing (${engine}): ${sent} generated requests, ${fivexx} 5xx, ${messagesSeen.size} distinct 4xx messages, ${((Date.now() - started) / 1000).toFixed(1)} s; statuses ${statuses}`,
    );
    if (process.env.FUZZ_MESSAGES) {
      // biome-ignore lint/suspicious/noConsole: the list of messages, on demand.
      console.log([...messagesSeen].sort().join('\n'));
    }
    await demo?.t.close();
    await stripe?.t.close();
  });

  function templates(
    f: SecurityFixtures,
    spareImage: string,
  ): Record<string, Record<string, unknown>> {
    return {
      'POST /api/booking': {
        treatmentId: 'teeth-cleaning',
        date: mediumDay(373),
        slot: '10:00 AM - 10:30 AM',
        phone: '+1 555 000 1111',
        age: 30,
      },
      'POST /api/create-payment-intent': { bookingId: f.a.unpaid.id, price: 80 },
      'PATCH /api/booking/:id': { appointmentId: f.a.unpaid.id, transactionId: f.a.intentId },
      'PATCH /api/booking/:id/status': { status: 'arrived' },
      'POST /api/booking/:id/cancel': { reason: 'The clinic is closed that day.' },
      'POST /api/booking/:id/reschedule': { date: mediumDay(374), slot: '11:00 AM - 11:30 AM' },
      'POST /api/demo-gateway/confirm': {
        clientSecret: f.a.clientSecret,
        card: DECLINED_CARD,
        billingDetails: { name: 'Card Holder', email: 'holder@mail.com' },
      },
      'POST /api/doctor': {
        name: 'Dr Fuzz',
        email: 'drfuzz@clinic.com',
        specialty: 'Teeth Cleaning',
        image: spareImage,
      },
      'PATCH /api/doctor/:id': {
        name: 'Dr Fuzz Changed',
        specialty: 'Teeth Cleaning',
        treatmentIds: ['teeth-cleaning', 'fluoride-treatment'],
        workDays: [1, 2, 3, 4, 5],
        daysOff: [clinicDay(50), clinicDay(51)],
      },
      'POST /api/treatments': {
        name: 'Fuzz Treatment',
        description: 'Made by the fuzzer',
        price: 80,
        slots: ['9:00 AM - 9:30 AM', '9:30 AM - 10:00 AM'],
      },
      'PATCH /api/treatments/:id': {
        description: 'Changed by the fuzzer',
        price: 70.5,
        slots: ['3:00 PM - 3:30 PM', '3:30 PM - 4:00 PM'],
      },
      'PUT /api/clinic/opening-days': { days: [0, 1, 2, 3, 4, 5, 6] },
      'POST /api/closures': { from: clinicDay(700), to: clinicDay(701), label: 'Fuzz holiday' },
      'PUT /api/clinic/rules': {
        horizonDays: 730,
        minNoticeMinutes: 0,
        maxUnpaidBookings: 5,
        cancellationNoticeHours: 0,
        reminderLeadHours: 24,
      },
      'PUT /api/user/:email': { email: f.people.A.email },
      'DELETE /api/account': { password: 'not-the-password', confirmation: 'DELETE' },
      'POST /api/contact': {
        email: 'visitor@mail.com',
        subject: 'A question',
        message: 'Hello',
        website: '',
      },
      'PATCH /api/contact-messages/:id': { read: true },
      'POST /api/visit/:token/reschedule': { date: mediumDay(375), slot: '11:00 AM - 11:30 AM' },
      'POST /api/waitlist': { treatmentId: 'teeth-cleaning', date: mediumDay(376) },
      'POST /api/stripe/webhook': {
        id: 'evt_fuzz',
        object: 'event',
        type: 'payment_intent.succeeded',
        data: {
          object: {
            id: 'pi_fuzz',
            object: 'payment_intent',
            metadata: { bookingId: f.a.unpaid.id },
          },
        },
      },
    };
  }

  /** Values of path parameters and query fields that name real things. */
  function plausible(f: SecurityFixtures, route: string, name: string): string[] {
    const destructive =
      route === 'DELETE /api/user/:email' ||
      route === 'PUT /api/user/admin/:email' ||
      route === 'DELETE /api/user/admin/:email';
    switch (name) {
      case 'id':
        if (route.includes('/api/treatments/')) {
          return ['pediatric-dental', 'no-such-treatment', randomUUID(), ''];
        }
        if (route.includes('/api/doctor/')) {
          return [f.doctor.id, f.doctor.email, randomUUID(), 'nobody@mail.com', 'NOBODY@MAIL.COM '];
        }
        if (route.includes('/api/closures/')) {
          return [...(realIds.get(f)?.closures ?? []), randomUUID(), 'not-a-uuid'];
        }
        if (route.includes('/api/contact-messages/')) {
          return [...(realIds.get(f)?.messages ?? []), randomUUID(), 'not-a-uuid'];
        }
        if (route.includes('/api/waitlist/')) return [randomUUID(), 'not-a-uuid', ''];
        if (route.includes('/api/mail/failures/')) {
          return [...(realIds.get(f)?.failures ?? []), randomUUID(), 'not-a-uuid'];
        }
        return [f.a.unpaid.id, f.a.paid.id, f.b.booking.id, randomUUID(), 'not-a-uuid'];
      case 'email':
        return [
          ...(destructive ? [] : [f.people.A.email]),
          f.people.B.email,
          f.doctor.email,
          'nobody@mail.com',
          'NOBODY@MAIL.COM ',
        ];
      case 'file':
        // The feed's file: a real one (until the fuzzer makes the doctor a new one), junk.
        return [
          ...(realIds.get(f)?.feeds ?? []),
          `${'A'.repeat(43)}.ics`,
          'x.ics',
          `${randomUUID()}.ics`,
        ];
      case 'token': {
        // Mail links that do nothing: signed for no booking, expired, and junk.
        const signer = visitLinkSignerOf(f.t.config);
        const link = (bookingId: string, expiresAt: number) =>
          signer.sign({ bookingId, action: 'cancel', sequence: 0, expiresAt });
        return [link(randomUUID(), Date.now() + 86_400_000), link(f.a.paid.id, 0), 'A'.repeat(60)];
      }
      case 'name':
        return [f.image.path.slice('/uploads/'.length), 'x.webp', 'x.png'];
      case 'date':
        return [mediumDay(4), mediumDay(2), formatMediumDate(nextClinicDate('02-29'))];
      case 'month':
        return [clinicDay(31).slice(0, 7), '2031-13', '9999-12', '1970-01', '2031-2'];
      case 'patientMail':
        return [f.people.A.email, f.people.B.email];
      case 'from':
      case 'to':
        return [
          clinicDay(0),
          clinicDay(30),
          clinicDay(31),
          clinicDay(-1),
          '2031-02-30',
          'Jan 5, 2031',
        ];
      case 'q':
        if (route === 'GET /api/schedule/search') {
          // Around its bounds (2 to 200 characters once trimmed), LIKE's own characters, and A.
          return [
            'al',
            ' a ',
            '%_',
            '\\%',
            'a'.repeat(200),
            `${'b'.repeat(200)} `,
            'é'.repeat(201),
            'ALICE ENAMEL',
            f.people.A.email,
          ];
        }
        return ['alice', '%', '_', 'ALICE ENAMEL', f.people.A.email];
      case 'treatmentId':
        return ['teeth-cleaning', 'no-such-treatment'];
      case 'slot':
        return ['10:00 AM - 10:30 AM', '11:00 AM - 12:00 PM', 'x'];
      case 'doctor':
        return [f.doctor.id, randomUUID()];
      case 'actor':
        return [f.people.A.id, 'alice', '%', 'system', f.people.admin.email];
      case 'action':
        return ['booking.created', 'booking.*', 'clinic.*', '*', 'BOOKING', 'a..b'];
      case 'cursor':
        return ['', 'MjAzMC0wMS0wNVQwMDowMDowMC4wMDBafGFiYw', 'bm9wZQ', '%%%'];
      case 'unread':
        return ['true', 'false', '1', ''];
      case 'limit':
      case 'offset':
        return [
          '0',
          '1',
          '200',
          '201',
          '-1',
          '1.5',
          '1e3',
          '1e20',
          '9223372036854775808',
          '2147483648',
        ];
      default:
        return ['x'];
    }
  }

  function headersFor(f: SecurityFixtures, who: Credential): Record<string, string> {
    switch (who) {
      case 'anon':
        return {};
      case 'patient':
        return { authorization: `Bearer ${f.people.A.token}` };
      case 'admin':
        return { authorization: `Bearer ${f.people.admin.token}` };
      case 'cookie':
        return { cookie: f.people.A.cookie, origin: f.t.config.publicUrl };
      case 'garbage':
        return { authorization: `Bearer ${f.people.A.token.slice(0, -4)}AAAA` };
    }
  }

  function requestArbitrary(f: SecurityFixtures, route: RegisteredRoute, spareImage: string) {
    const key = routeKey(route);
    const params = [...route.url.matchAll(/:(\w+)/g)].map((match) => String(match[1]));
    const queryFields = [
      'date',
      'month',
      'patientMail',
      'limit',
      'offset',
      'from',
      'to',
      'q',
      'treatmentId',
      'slot',
      'doctor',
      'actor',
      'action',
      'cursor',
      'unread',
      'x',
      '__proto__',
    ];
    const path = fc
      .tuple(...params.map((name) => urlPiece(plausible(f, key, name))))
      .map((values) => {
        let url = route.url;
        params.forEach((name, index) => {
          url = url.replace(`:${name}`, values[index] ?? '');
        });
        return url;
      });
    const query = fc.array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...queryFields), urlPiece(['a'])),
        fc.oneof(...queryFields.map((name) => urlPiece(plausible(f, key, name)))),
      ),
      { maxLength: 4 },
    );
    // DELETE /api/account asks for the password in its body; no other DELETE has one.
    const sendsBody =
      route.method !== 'GET' && (route.method !== 'DELETE' || key === 'DELETE /api/account');
    const body: fc.Arbitrary<Body> =
      key === 'POST /api/image'
        ? imageBody(photo)
        : sendsBody
          ? bodyFor(templates(f, spareImage)[key])
          : fc.oneof(
              { weight: 4, arbitrary: fc.constant<Body>({}) },
              { weight: 1, arbitrary: bodyFor(undefined) },
            );
    const extraHeaders = fc.dictionary(
      fc.constantFrom(
        'authorization',
        'cookie',
        'origin',
        'x-forwarded-for',
        'accept',
        'accept-language',
        'sec-fetch-site',
        'stripe-signature',
        'x-portal-client-ip',
        'if-none-match',
        'range',
      ),
      headerValue,
      { maxKeys: 3 },
    );
    return fc
      .record({ path, query, body, who: credential, extraHeaders })
      .map(
        ({ path: url, query: pairs, body: { payload, contentType }, who, extraHeaders: extra }) => {
          const search = pairs.map(([name, value]) => `${name}=${value}`).join('&');
          const headers: Record<string, string> = { ...headersFor(f, who), ...extra };
          if (contentType !== undefined) headers['content-type'] = contentType;
          const request: InjectOptions = {
            method: route.method as InjectOptions['method'],
            url: search ? `${url}?${search}` : url,
            headers,
            remoteAddress: '10.99.0.1',
            ...(payload === undefined ? {} : { payload }),
          };
          return request;
        },
      );
  }

  const allRoutes = () => [
    ...apiRoutes(demo.routes).map((route) => ({ f: demo, route })),
    ...apiRoutes(stripe.routes)
      .filter((route) => !apiRoutes(demo.routes).some((r) => routeKey(r) === routeKey(route)))
      .map((route) => ({ f: stripe, route })),
  ];

  it('covers every route the server registers', () => {
    const keys = allRoutes().map(({ route }) => routeKey(route));
    expect(keys.length).toBeGreaterThanOrEqual(20);
    expect(keys).toContain('POST /api/stripe/webhook');
    expect(keys).toContain('POST /api/image');
  });

  it('answers every generated request to every route without a 5xx, and 4xx with a message', async () => {
    const spareImage = await uploadPhoto(demo.t, demo.people.admin);
    for (const { f, route } of allRoutes()) {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(f, route, spareImage), async (request) => {
          judge(request, await f.t.app.inject(request));
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: false },
      );
    }
  }, 240_000);

  it('answers unknown methods and paths with a JSON 404', async () => {
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
    const urls = allRoutes().map(({ route }) => route.url.replace(/:\w+/g, 'x'));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...methods),
        fc.oneof(
          fc.constantFrom(...urls),
          urlPiece(['api']).map((piece) => `/api/${piece}`),
        ),
        async (method, url) => {
          const request: InjectOptions = { method, url };
          judge(request, await demo.t.app.inject(request));
        },
      ),
      { numRuns: RUNS_PER_ROUTE * 2, seed: SEED },
    );
  }, 60_000);

  it('survives JSON nested 1000 and 300,000 levels deep on every route that takes a body', async () => {
    for (const { f, route } of allRoutes()) {
      for (const depth of [1000, 300_000]) {
        for (const kind of ['array', 'object'] as const) {
          const request: InjectOptions = {
            method: route.method as InjectOptions['method'],
            url: route.url.replace(/:\w+/g, 'x'),
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${f.people.admin.token}`,
            },
            payload: nestedJson(depth, kind),
          };
          judge(request, await f.t.app.inject(request));
        }
      }
    }
    // About 400 bodies of up to 600 KB each: 8 s on a quiet machine, several times that beside
    // the other suites.
  }, 60_000);

  it('refuses a compressed body with 415, naming its encoding, on every route that takes JSON', async () => {
    const body = gzipSync(JSON.stringify({ date: 'Jan 5, 2031', slot: '10:00 AM - 10:30 AM' }));
    for (const { f, route } of allRoutes()) {
      // The webhook reads its raw bytes for Stripe's signature, which a compressed body fails.
      const own = route.url === '/api/image' || route.url === '/api/stripe/webhook';
      if (route.method === 'GET' || own || route.url.startsWith('/api/auth')) continue;
      const request: InjectOptions = {
        method: route.method as InjectOptions['method'],
        url: route.url.replace(/:\w+/g, 'x'),
        headers: {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          authorization: `Bearer ${f.people.admin.token}`,
        },
        payload: body,
      };
      const response = await f.t.app.inject(request);
      judge(request, response);
      // A route that reads no body, or refuses the caller first, may answer otherwise.
      if (response.statusCode === 415) {
        expect(response.json().message, routeKey(route)).toBe(
          'The request body is compressed (gzip), which this address does not accept: send it uncompressed.',
        );
        expect(response.headers['accept-encoding'], routeKey(route)).toBe('identity');
      } else {
        expect(response.statusCode, routeKey(route)).not.toBe(400);
      }
    }
    const booking = await demo.t.app.inject({
      method: 'POST',
      url: '/api/booking',
      headers: {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        authorization: `Bearer ${demo.people.A.token}`,
      },
      payload: body,
    });
    expect(booking.statusCode).toBe(415);
  });

  describe('oversized bodies', () => {
    it('are cut off with 413 and a clear message beyond 1 MiB, before the body is read', async () => {
      for (const { f, route } of allRoutes()) {
        if (route.method === 'GET' || route.method === 'DELETE' || route.url === '/api/image')
          continue;
        // Declared too large: answered at once, from the Content-Length alone.
        const declared: InjectOptions = {
          method: route.method as InjectOptions['method'],
          url: route.url.replace(/:\w+/g, 'x'),
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${f.people.admin.token}`,
          },
          payload: `{"a":"${'x'.repeat(1024 * 1024)}"}`,
        };
        const response = await f.t.app.inject(declared);
        judge(declared, response);
        expect(response.statusCode, routeKey(route)).toBe(413);
        expect(response.json().message).toMatch(/larger than the 1 MB this address accepts/);
      }
    });

    it('are cut off with 413 beyond 1 MiB when streamed without a declared length', async () => {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const request: InjectOptions = {
        method: 'POST',
        url: '/api/booking',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${demo.people.A.token}`,
        },
        payload: Readable.from(
          (function* () {
            yield Buffer.from('{"phone":"');
            for (let sent = 0; sent < 2 * 1024 * 1024; sent += chunk.length) yield chunk;
            yield Buffer.from('"}');
          })(),
        ),
      };
      const response = await demo.t.app.inject(request);
      judge(request, response);
      expect(response.statusCode).toBe(413);
    });

    it('are answered from the declared length alone, without waiting for the body', async () => {
      const address = await demo.t.app.listen({ port: 0, host: '127.0.0.1' });
      const ask = (path: string, length: number, headers: Record<string, string>) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const request = http.request(`${address}${path}`, {
            method: 'POST',
            headers: { ...headers, 'content-length': String(length) },
          });
          // Only the headers go out; the body never follows.
          request.flushHeaders();
          request.on('response', (response) => {
            let body = '';
            response.on('data', (data) => {
              body += data;
            });
            response.on('end', () => {
              resolve({ status: response.statusCode ?? 0, body });
              request.destroy();
            });
          });
          request.on('error', reject);
          setTimeout(() => reject(new Error(`no answer to ${path} within 3 s`)), 3000);
        });
      const booking = await ask('/api/booking', 2 * 1024 * 1024, {
        'content-type': 'application/json',
        authorization: `Bearer ${demo.people.A.token}`,
      });
      expect(booking.status).toBe(413);
      expect(JSON.parse(booking.body).message).toMatch(/larger than the 1 MB/);
      const upload = await ask('/api/image', 6 * 1024 * 1024, {
        'content-type': 'multipart/form-data; boundary=xyz',
        authorization: `Bearer ${demo.people.admin.token}`,
      });
      // Every refused photo is a 400, one too large among them.
      expect(upload.status).toBe(400);
      expect(JSON.parse(upload.body).message).toMatch(/larger than 5 MB/);
      sent += 2;
    });

    it('are cut off with 400 beyond 5 MB for a photo upload, as every refused photo is', async () => {
      const body = multipartBody([
        {
          filename: 'big.png',
          contentType: 'image/png',
          data: Buffer.concat([photo, Buffer.alloc(IMAGE_MAX_BYTES + 1024)]),
        },
      ]);
      const request: InjectOptions = {
        method: 'POST',
        url: '/api/image',
        headers: { ...body.headers, authorization: `Bearer ${demo.people.admin.token}` },
        payload: body.payload,
      };
      const response = await demo.t.app.inject(request);
      judge(request, response);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/larger than 5 MB/);
    });
  });

  describe("the auth library's endpoints (/api/auth/*)", () => {
    const AUTH_PATHS = [
      '/sign-in/email',
      '/sign-up/email',
      '/sign-out',
      '/get-session',
      '/list-sessions',
      '/request-password-reset',
      '/reset-password',
      '/verify-email',
      '/send-verification-email',
      '/update-user',
      '/change-password',
      '/sign-in/social',
      '/sign-in/oauth2',
      '/callback/google',
      '/no-such-endpoint',
    ];
    const AUTH_TEMPLATE = {
      name: 'Fuzzy Patient',
      email: 'fuzzy@mail.com',
      password: 'plaque-free-smile-42',
      newPassword: 'plaque-free-smile-43',
      token: 'x',
      callbackURL: '/dashboard',
      provider: 'google',
    };
    let client = 0;

    it('answer generated requests without a 5xx, and 4xx with a message', async () => {
      const { cookie } = await signUp(demo.t.app, { name: 'Fuzzy Patient' });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...AUTH_PATHS),
          fc.constantFrom('GET', 'POST'),
          bodyFor(AUTH_TEMPLATE),
          fc.constantFrom('none', 'cookie', 'foreign'),
          urlPiece(['a']),
          async (path, method, { payload, contentType }, who, query) => {
            client += 1;
            const headers: Record<string, string> = {};
            if (who !== 'none')
              headers.origin = who === 'foreign' ? 'https://evil.example' : demo.t.config.publicUrl;
            if (who === 'cookie') headers.cookie = cookie;
            if (contentType && method === 'POST') headers['content-type'] = contentType;
            const request: InjectOptions = {
              method,
              url: `/api/auth${path}?callbackURL=${query}`,
              headers,
              // A client of its own each time: the auth library's per-client limits are not
              // what is tested here.
              remoteAddress: `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
              ...(payload === undefined || method === 'GET' ? {} : { payload }),
            };
            judge(request, await demo.t.app.inject(request));
          },
        ),
        { numRuns: RUNS_PER_ROUTE * 2, seed: SEED },
      );
    }, 120_000);

    it('survive JSON nested 1000 and 200,000 levels deep', async () => {
      for (const path of ['/sign-in/email', '/sign-up/email', '/update-user']) {
        for (const depth of [1000, 200_000]) {
          const request: InjectOptions = {
            method: 'POST',
            url: `/api/auth${path}`,
            headers: { 'content-type': 'application/json', origin: demo.t.config.publicUrl },
            remoteAddress: '10.200.0.1',
            payload: `{"email":${nestedJson(depth, 'array')},"password":${nestedJson(depth, 'array')}}`,
          };
          judge(request, await demo.t.app.inject(request));
        }
      }
    });
  });

  it('still answers /api/health afterwards, on both apps', async () => {
    for (const f of [demo, stripe]) {
      const response = await f.t.app.inject('/api/health');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', database: 'reachable' });
    }
  });
});
