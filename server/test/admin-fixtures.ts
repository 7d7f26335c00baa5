import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import type { Database } from '../src/db/schema.js';
import { setAdmin } from '../src/users/repository.js';
import { accessToken, signUp } from './accounts.js';

/** A signed-in person with an API access token. */
export interface Person {
  id: string;
  email: string;
  name: string;
  token: string;
  cookie: string;
}

export async function signedUp(app: FastifyInstance, name: string): Promise<Person> {
  const account = await signUp(app, { name });
  return {
    id: account.id,
    email: account.email,
    name,
    token: await accessToken(app, account),
    cookie: account.cookie,
  };
}

/** A signed-in administrator, made one as the admin CLI does it. */
export async function signedUpAdmin(app: FastifyInstance, name = 'Clinic Admin'): Promise<Person> {
  const person = await signedUp(app, name);
  await setAdmin(app.db, person.email, true);
  return person;
}

export interface FilePart {
  field?: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body as a browser's FormData would send it. */
export function multipartBody(parts: FilePart[], fields: Record<string, string> = {}) {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${part.field ?? 'image'}"; ` +
          `filename="${part.filename}"\r\ncontent-type: ${part.contentType}\r\n\r\n`,
      ),
      part.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** `POST /api/image` with one file in the field `image`, as the Add Doctor form sends it. */
export function uploadImage(
  app: FastifyInstance,
  token: string | null,
  part: FilePart,
  options: { fields?: Record<string, string> } = {},
) {
  const body = multipartBody([part], options.fields);
  return app.inject({
    method: 'POST',
    url: '/api/image',
    headers: { ...body.headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload: body.payload,
  });
}

/** A small photo-like PNG (a gradient), carrying EXIF data that must not survive an upload. */
export async function photoPng(width = 640, height = 480): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      pixels[offset] = (x * 255) / width;
      pixels[offset + 1] = (y * 255) / height;
      pixels[offset + 2] = 128;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .withExif({
      IFD0: { Artist: 'Dr. Secret', ImageDescription: 'patient 4711, taken at home' },
    })
    .png()
    .toBuffer();
}

/**
 * A JPEG stored sideways with an EXIF orientation of 6 (turn 90° clockwise to view): stored,
 * its left half is red and its right half blue; viewed upright, red is on top.
 */
export async function sidewaysJpeg(): Promise<Buffer> {
  const width = 200;
  const height = 100;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const offset = (y * width + x) * 3;
      if (x < width / 2) pixels[offset] = 255;
      else pixels[offset + 2] = 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a valid PNG of 30000×30000 black pixels (900 megapixels, gigabytes once
 * decoded) that compresses to about a hundred kilobytes.
 */
export function decompressionBombPng(side = 30_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth 1
  header[9] = 0; // greyscale
  const row = 1 + Math.ceil(side / 8); // a filter byte, then the packed pixels
  const pixels = zlib.deflateSync(Buffer.alloc(row * side), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Every entry of the uploads folder, hidden partial files included. */
export function filesIn(dir: string): string[] {
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

export const uploadsDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** A subject's audit log entries of one action, oldest first: what each recorded before. */
export function auditEntriesOf(db: Kysely<Database>, action: string, subjectId: string) {
  return db
    .selectFrom('audit_log')
    .select(['id', 'before'])
    .where('action', '=', action)
    .where('subject_id', '=', subjectId)
    .orderBy('at')
    .execute();
}

/** A doctor stored directly (no photo upload), working every weekday; answers their id. */
export async function storedDoctor(db: Kysely<Database>, name: string): Promise<string> {
  const id = `doctor-${randomBytes(4).toString('hex')}`;
  await db
    .insertInto('doctor')
    .values({
      id,
      name,
      email: `${id}@clinic.test`,
      specialty: 'Teeth Cleaning',
      image_url: `/uploads/${id}.webp`,
      created_at: new Date().toISOString(),
      work_days: JSON.stringify([1, 2, 3, 4, 5]),
    })
    .execute();
  return id;
}
