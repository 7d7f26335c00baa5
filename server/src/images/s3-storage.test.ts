import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/accounts.js';
import {
  filesIn,
  type Person,
  photoPng,
  signedUpAdmin,
  uploadImage,
  uploadsDir,
} from '../../test/admin-fixtures.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';
import { type S3StandIn, startS3StandIn } from '../../test/s3-stand-in.js';
import { s3Storage } from './s3-storage.js';

const UUID_WEBP = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

async function upload(t: TestApp, admin: Person) {
  const response = await uploadImage(t.app, admin.token, {
    filename: 'doctor.png',
    contentType: 'image/png',
    data: await photoPng(128, 128),
  });
  expect(response.statusCode).toBe(201);
  return (response.json() as { data: { url: string } }).data.url;
}

describe(`images in S3-compatible storage (${engine})`, () => {
  let bucket: S3StandIn;

  beforeAll(async () => {
    bucket = await startS3StandIn();
  });
  afterAll(() => bucket.close());

  describe('served through the portal (no S3_PUBLIC_URL)', () => {
    let t: TestApp;
    let admin: Person;

    beforeAll(async () => {
      t = await buildTestApp({ env: bucket.env() });
      admin = await signedUpAdmin(t.app);
    });
    afterAll(() => t.close());

    it('puts the WebP in the bucket, not on disk, and serves it at /uploads/ with nosniff', async () => {
      const url = await upload(t, admin);

      expect(url).toMatch(/^\/uploads\//);
      const name = url.slice('/uploads/'.length);
      expect(bucket.requests).toContain(`PUT /${bucket.bucket}/${name}`);
      expect(bucket.objects.get(name)).toMatchObject({
        contentType: 'image/webp',
        cacheControl: 'public, max-age=31536000, immutable',
      });
      expect(filesIn(uploadsDir(t.config.dataDir))).toEqual([]);

      const served = await t.app.inject(url);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.rawPayload.equals(bucket.objects.get(name)?.body ?? Buffer.alloc(0))).toBe(
        true,
      );
    });

    it('answers 404 for a name the bucket does not hold', async () => {
      const response = await t.app.inject('/uploads/00000000-0000-4000-8000-000000000000.webp');
      expect(response.statusCode).toBe(404);
    });

    it('stores nothing for a refused upload', async () => {
      const before = bucket.objects.size;
      const response = await uploadImage(t.app, admin.token, {
        filename: 'x.png',
        contentType: 'image/png',
        data: Buffer.from('<svg><script>alert(1)</script></svg>'),
      });
      expect(response.statusCode).toBe(400);
      expect(bucket.objects.size).toBe(before);
    });

    it('adds a doctor with a photo in the bucket and deletes the object with the doctor', async () => {
      const url = await upload(t, admin);
      const name = url.slice('/uploads/'.length);
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/doctor',
        headers: bearer(admin.token),
        payload: {
          name: 'Dr. Bucket',
          email: 'bucket@clinic.com',
          specialty: 'Cavity Filling',
          image: url,
        },
      });
      expect(added.statusCode).toBe(201);

      const removed = await t.app.inject({
        method: 'DELETE',
        url: '/api/doctor/bucket@clinic.com',
        headers: bearer(admin.token),
      });

      expect(removed.json()).toEqual({ deletedCount: 1 });
      expect(bucket.requests).toContain(`DELETE /${bucket.bucket}/${name}`);
      expect(bucket.objects.has(name)).toBe(false);
    });
  });

  describe('served from S3_PUBLIC_URL', () => {
    let t: TestApp;
    let admin: Person;
    const publicUrl = 'https://photos.clinic.example/doctors';

    beforeAll(async () => {
      t = await buildTestApp({ env: bucket.env({ S3_PUBLIC_URL: publicUrl }) });
      admin = await signedUpAdmin(t.app);
    });
    afterAll(() => t.close());

    it('answers URLs under the public address and accepts them for doctors', async () => {
      const url = await upload(t, admin);
      expect(url.startsWith(`${publicUrl}/`)).toBe(true);
      expect(url).toMatch(UUID_WEBP);
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/doctor',
        headers: bearer(admin.token),
        payload: {
          name: 'Dr. Cdn',
          email: 'cdn@clinic.com',
          specialty: 'Cavity Filling',
          image: url,
        },
      });
      expect(added.statusCode).toBe(201);
      // A URL of the portal's own folder is not one this configuration answers.
      const local = await t.app.inject({
        method: 'POST',
        url: '/api/doctor',
        headers: bearer(admin.token),
        payload: {
          name: 'Dr. Local',
          email: 'local@clinic.com',
          specialty: 'Cavity Filling',
          image: `/uploads/${url.split('/').pop()}`,
        },
      });
      expect(local.statusCode).toBe(400);
    });
  });

  it('signs its requests with the configured key', async () => {
    const storage = s3Storage({
      storage: 's3',
      bucket: bucket.bucket,
      region: 'us-east-1',
      endpoint: bucket.endpoint,
      accessKeyId: 'AKIAWRONGKEY',
      secretAccessKey: 'nope',
    });
    try {
      await expect(
        storage.save('00000000-0000-4000-8000-000000000000.webp', Buffer.from('x'), 'image/webp'),
      ).rejects.toThrow();
    } finally {
      storage.close();
    }
  });
});
