import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signUp } from '../../test/accounts.js';
import {
  multipartBody,
  type Person,
  photoPng,
  signedUp,
  signedUpAdmin,
  uploadImage,
} from '../../test/admin-fixtures.js';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';

/**
 * Every admin route, with a request an admin would make successfully. Each is called three
 * times: without a token, by a patient, by an admin.
 */
interface AdminRoute {
  route: string;
  /** A fresh request each call (some routes consume what they act on). */
  request(app: FastifyInstance, admin: Person): Promise<InjectOptions>;
  success: number;
}

async function newDoctor(app: FastifyInstance, admin: Person) {
  const upload = await uploadImage(app, admin.token, {
    filename: 'doctor.png',
    contentType: 'image/png',
    data: await photoPng(64, 64),
  });
  const { url } = (upload.json() as { data: { url: string } }).data;
  return {
    name: 'Dr. Amira Khan',
    email: `doctor-${randomUUID().slice(0, 8)}@clinic.com`,
    specialty: 'Teeth Whitening',
    image: url,
  };
}

const ROUTES: AdminRoute[] = [
  {
    route: 'GET /api/users',
    request: async () => ({ method: 'GET', url: '/api/users' }),
    success: 200,
  },
  {
    route: 'PUT /api/user/admin/{email}',
    request: async (app) => {
      const { email } = await signUp(app);
      return { method: 'PUT', url: `/api/user/admin/${email}` };
    },
    success: 200,
  },
  {
    route: 'DELETE /api/user/{email}',
    request: async (app) => {
      const { email } = await signUp(app);
      return { method: 'DELETE', url: `/api/user/${email}` };
    },
    success: 200,
  },
  {
    route: 'POST /api/image',
    request: async () => {
      const body = multipartBody([
        { filename: 'photo.png', contentType: 'image/png', data: await photoPng(64, 64) },
      ]);
      return { method: 'POST', url: '/api/image', headers: body.headers, payload: body.payload };
    },
    success: 201,
  },
  {
    route: 'POST /api/doctor',
    request: async (app, admin) => ({
      method: 'POST',
      url: '/api/doctor',
      payload: await newDoctor(app, admin),
    }),
    success: 201,
  },
  {
    route: 'GET /api/doctor',
    request: async () => ({ method: 'GET', url: '/api/doctor' }),
    success: 200,
  },
  {
    route: 'DELETE /api/doctor/{email}',
    request: async (app, admin) => {
      const doctor = await newDoctor(app, admin);
      await app.inject({
        method: 'POST',
        url: '/api/doctor',
        headers: bearer(admin.token),
        payload: doctor,
      });
      return { method: 'DELETE', url: `/api/doctor/${doctor.email}` };
    },
    success: 200,
  },
];

describe(`every admin route is guarded on the server (${engine})`, () => {
  let t: TestApp;
  let admin: Person;
  let patient: Person;

  beforeAll(async () => {
    t = await buildTestApp();
    [admin, patient] = await Promise.all([
      signedUpAdmin(t.app, 'Clinic Admin'),
      signedUp(t.app, 'Jane Doe'),
    ]);
  });
  afterAll(() => t.close());

  const send = async (route: AdminRoute, headers: Record<string, string>) => {
    const request = await route.request(t.app, admin);
    return t.app.inject({ ...request, headers: { ...request.headers, ...headers } });
  };

  it.each(ROUTES)('$route answers 401 without a token', async (route) => {
    const response = await send(route, {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it.each(ROUTES)('$route answers 401 for a forged token', async (route) => {
    const response = await send(route, bearer(`${admin.token.slice(0, -4)}AAAA`));
    expect(response.statusCode).toBe(401);
  });

  it.each(ROUTES)('$route answers 403 for a signed-in patient', async (route) => {
    const response = await send(route, bearer(patient.token));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });
  });

  // Authorisation comes before the body is read or validated.
  it.each([
    { method: 'GET' as const, url: '/api/users?limit=0' },
    { method: 'POST' as const, url: '/api/doctor', payload: { name: '' } },
    { method: 'POST' as const, url: '/api/image', payload: 'not multipart' },
    { method: 'PUT' as const, url: '/api/user/admin/%20' },
    {
      method: 'POST' as const,
      url: '/api/doctor',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    },
  ])('$method $url answers 401 and 403, not 400, when malformed', async (request) => {
    expect((await t.app.inject(request)).statusCode).toBe(401);
    const asPatient = await t.app.inject({
      ...request,
      headers: { ...request.headers, ...bearer(patient.token) },
    });
    expect(asPatient.statusCode).toBe(403);
  });

  it.each(ROUTES)('$route answers $success for an admin', async (route) => {
    const response = await send(route, bearer(admin.token));
    expect(response.statusCode, response.body).toBe(route.success);
  });
});
