import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { IMAGE_MAX_BYTES, messages } from '@doctors-portal/contract';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import {
  decompressionBombPng,
  filesIn,
  multipartBody,
  type Person,
  photoPng,
  sidewaysJpeg,
  signedUp,
  signedUpAdmin,
  uploadImage,
  uploadsDir,
} from '../../test/admin-fixtures.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { imageErrors } from './process.js';
import { uploadErrors } from './routes.js';

const UPLOADED_URL =
  /^\/uploads\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

describe(`uploading a doctor's photo (${engine})`, () => {
  let t: TestApp;
  let admin: Person;
  let patient: Person;
  let dir: string;

  beforeAll(async () => {
    t = await buildTestApp();
    dir = uploadsDir(t.config.dataDir);
    [admin, patient] = await Promise.all([
      signedUpAdmin(t.app, 'Clinic Admin'),
      signedUp(t.app, 'Jane Doe'),
    ]);
  });
  afterAll(() => t.close());

  describe('accepts a real photo', () => {
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('re-encodes a PNG as a 512×512 WebP without its EXIF data, stored under a generated name', async () => {
      const png = await photoPng();
      expect((await sharp(png).metadata()).exif).toBeDefined();

      const response = await uploadImage(t.app, admin.token, {
        filename: 'dr-jones.png',
        contentType: 'image/png',
        data: png,
      });

      expect(response.statusCode).toBe(201);
      const { success, data } = response.json() as { success: boolean; data: { url: string } };
      expect(success).toBe(true);
      expect(data.url).toMatch(UPLOADED_URL);
      const name = data.url.slice('/uploads/'.length);
      expect(filesIn(dir)).toEqual([name]);
      const stored = fs.readFileSync(path.join(dir, name));
      const metadata = await sharp(stored).metadata();
      expect(metadata).toMatchObject({ format: 'webp', width: 512, height: 512 });
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(stored.includes('patient 4711')).toBe(false);
    });

    it('serves the stored photo as image/webp with nosniff and a long cache', async () => {
      const upload = await uploadImage(t.app, admin.token, {
        filename: 'photo.png',
        contentType: 'image/png',
        data: await photoPng(),
      });
      const { url } = (upload.json() as { data: { url: string } }).data;

      const response = await t.app.inject(url);

      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await sharp(response.rawPayload).metadata()).format).toBe('webp');
    });

    it('turns a sideways JPEG upright by its EXIF orientation', async () => {
      const response = await uploadImage(t.app, admin.token, {
        filename: 'sideways.jpg',
        contentType: 'image/jpeg',
        data: await sidewaysJpeg(),
      });
      expect(response.statusCode).toBe(201);
      const name = (response.json() as { data: { url: string } }).data.url.split('/').pop() ?? '';
      const { data, info } = await sharp(path.join(dir, name))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number) => {
        const offset = (y * info.width + x) * info.channels;
        return { red: data[offset] ?? 0, blue: data[offset + 2] ?? 0 };
      };
      // Upright, red is on top and blue below; left and right are alike.
      expect(pixel(256, 100).red).toBeGreaterThan(200);
      expect(pixel(256, 400).blue).toBeGreaterThan(200);
      expect(pixel(100, 100)).toEqual(pixel(400, 100));
    });

    it('accepts a WebP whatever its declared type and name', async () => {
      const webp = await sharp(await photoPng(300, 300))
        .webp()
        .toBuffer();
      const response = await uploadImage(t.app, admin.token, {
        filename: 'blob',
        contentType: 'application/octet-stream',
        data: webp,
      });
      expect(response.statusCode).toBe(201);
    });
  });

  describe('refuses anything else with 400, storing nothing', () => {
    const refusals: Array<{
      what: string;
      part: () => Promise<Parameters<typeof uploadImage>[2]>;
      message: string;
    }> = [
      {
        what: 'a text file named .png and declared image/png',
        part: async () => ({
          filename: 'photo.png',
          contentType: 'image/png',
          data: Buffer.from('This is not a picture, just some text pretending to be one.\n'),
        }),
        message: imageErrors.notAnImage,
      },
      {
        what: 'an SVG carrying a script',
        part: async () => ({
          filename: 'avatar.svg',
          contentType: 'image/svg+xml',
          data: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
              '<script>fetch("/api/users").then((r) => r.text()).then(alert)</script>' +
              '<rect width="10" height="10"/></svg>',
          ),
        }),
        message: imageErrors.notAnImage,
      },
      {
        what: 'an SVG carrying a script, named .png and declared image/png',
        part: async () => ({
          filename: 'avatar.png',
          contentType: 'image/png',
          data: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
          ),
        }),
        message: imageErrors.notAnImage,
      },
      {
        what: 'a GIF',
        part: async () => ({
          filename: 'smile.gif',
          contentType: 'image/gif',
          data: await sharp({
            create: { width: 8, height: 8, channels: 3, background: '#ffffff' },
          })
            .gif()
            .toBuffer(),
        }),
        message: imageErrors.notAnImage,
      },
      {
        what: 'a 6 MB image',
        part: async () => ({
          filename: 'huge.png',
          contentType: 'image/png',
          data: Buffer.concat([await photoPng(64, 64), Buffer.alloc(6 * 1024 * 1024)]),
        }),
        message: uploadErrors.tooLarge,
      },
      {
        what: 'a file just over 5 MB (cut off by the multipart limit)',
        part: async () => ({
          filename: 'just-over.png',
          contentType: 'image/png',
          data: Buffer.concat([await photoPng(64, 64), Buffer.alloc(IMAGE_MAX_BYTES)]),
        }),
        message: uploadErrors.tooLarge,
      },
      {
        what: 'a decompression-bomb PNG (30000×30000 pixels in a small file)',
        part: async () => {
          const bomb = decompressionBombPng();
          expect(bomb.length).toBeLessThan(IMAGE_MAX_BYTES / 10);
          return { filename: 'bomb.png', contentType: 'image/png', data: bomb };
        },
        message: imageErrors.tooManyPixels(30_000, 30_000),
      },
      {
        what: 'a PNG cut short',
        part: async () => {
          const png = await photoPng();
          return {
            filename: 'cut.png',
            contentType: 'image/png',
            data: png.subarray(0, png.length / 2),
          };
        },
        message: imageErrors.unreadable,
      },
      {
        what: 'an empty file',
        part: async () => ({
          filename: 'empty.png',
          contentType: 'image/png',
          data: Buffer.alloc(0),
        }),
        message: messages.imageRequired,
      },
      {
        what: 'a photo in another field than "image"',
        part: async () => ({
          field: 'photo',
          filename: 'photo.png',
          contentType: 'image/png',
          data: await photoPng(),
        }),
        message: uploadErrors.wrongField,
      },
    ];

    it.each(refusals)('$what', async ({ part, message }) => {
      const response = await uploadImage(t.app, admin.token, await part());
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ statusCode: 400, message });
      expect(filesIn(dir)).toEqual([]);
    });

    it('a 6 MB upload sent without a declared length, cut off at 5 MB', async () => {
      const body = multipartBody([
        {
          filename: 'streamed.png',
          contentType: 'image/png',
          data: Buffer.concat([await photoPng(64, 64), Buffer.alloc(6 * 1024 * 1024)]),
        },
      ]);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/image',
        headers: { ...body.headers, ...bearer(admin.token) },
        payload: Readable.from([body.payload.subarray(0, 65536), body.payload.subarray(65536)]),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: uploadErrors.tooLarge });
      expect(filesIn(dir)).toEqual([]);
    });

    it('a form with no file', async () => {
      const body = multipartBody([], { name: 'Dr. Jones' });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/image',
        headers: { ...body.headers, ...bearer(admin.token) },
        payload: body.payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: messages.imageRequired });
    });

    it.each([
      {
        what: 'without a boundary',
        contentType: 'multipart/form-data',
        payload: async () => Buffer.from('--x\r\n'),
      },
      {
        what: 'cut short before its closing boundary',
        contentType: 'multipart/form-data; boundary=cut',
        payload: async () =>
          Buffer.concat([
            Buffer.from(
              '--cut\r\ncontent-disposition: form-data; name="image"; filename="a.png"\r\n' +
                'content-type: image/png\r\n\r\n',
            ),
            (await photoPng(64, 64)).subarray(0, 500),
          ]),
      },
      {
        what: 'with two files',
        contentType: 'multipart/form-data; boundary=two',
        payload: async () => {
          const png = await photoPng(64, 64);
          const part = (name: string) =>
            Buffer.concat([
              Buffer.from(
                `--two\r\ncontent-disposition: form-data; name="${name}"; filename="a.png"\r\n` +
                  'content-type: image/png\r\n\r\n',
              ),
              png,
              Buffer.from('\r\n'),
            ]);
          return Buffer.concat([part('image'), part('image'), Buffer.from('--two--\r\n')]);
        },
      },
    ])('a multipart body $what, storing nothing', async ({ contentType, payload }) => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/image',
        headers: { 'content-type': contentType, ...bearer(admin.token) },
        payload: await payload(),
      });
      expect(response.statusCode).toBe(400);
      expect(filesIn(dir)).toEqual([]);
    });

    it('a body that is not multipart', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/image',
        headers: bearer(admin.token),
        payload: { image: 'data:image/png;base64,iVBORw0KGgo=' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: uploadErrors.notMultipart });
    });
  });

  it('takes uploads from admins only: 401 anonymous, 403 patient, nothing stored', async () => {
    const part = { filename: 'photo.png', contentType: 'image/png', data: await photoPng() };
    expect((await uploadImage(t.app, null, part)).statusCode).toBe(401);
    expect((await uploadImage(t.app, patient.token, part)).statusCode).toBe(403);
    expect(filesIn(dir)).toEqual([]);
  });

  it.each([
    ['/uploads/00000000-0000-4000-8000-000000000000.webp', 404],
    ['/uploads/portal.db', 404],
    // Dot segments are refused before routing, whatever the route (http/request-path.ts).
    ['/uploads/..%2Fportal.db', 400],
    ['/uploads/%2e%2e%2fauth-secret', 400],
  ])('answers %s with %i: no stored image, no file outside the uploads', async (url, status) => {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'portal.db'), 'not to be served');
    const response = await t.app.inject(url);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ statusCode: status });
    expect(response.body).not.toContain('not to be served');
  });
});
