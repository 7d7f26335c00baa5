import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engine, type TestApp } from '../test/helper.js';

describe(`the portal's HTTP app (${engine})`, () => {
  let t: TestApp;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(
      path.join(webRoot, 'index.html'),
      '<!doctype html><head><title>Portal</title></head><div id="root"></div>',
    );
    fs.writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js'), 'console.log(1)');
    fs.writeFileSync(
      path.join(webRoot, 'favicon.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"/>',
    );
    t = await buildTestApp({ webRoot });
    // A route that fails the way a bug would, to see what a client is told.
    t.app.get('/api/test/explode', async () => {
      throw new Error('select secret from "user" -- at db.ts:42');
    });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it("has no benchmark route unless the benchmark's ceiling is asked for", async () => {
    expect((await t.app.inject('/api/bench/bare')).statusCode).toBe(404);
    const bench = await buildTestApp({ env: { BENCH_BARE_ROUTE: 'true' } });
    try {
      const response = await bench.app.inject('/api/bench/bare');
      expect(response.json()).toEqual({ hello: 'world' });
      // Behind the same hooks as every API route.
      expect(response.headers['x-request-id']).toBeDefined();
      expect(response.headers['content-security-policy']).toBeDefined();
    } finally {
      await bench.close();
    }
  });

  it('reports the database as reachable', async () => {
    const response = await t.app.inject('/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'reachable' });
  });

  it('lists the services by name', async () => {
    const response = await t.app.inject('/api/service');
    expect(response.statusCode).toBe(200);
    const services = response.json() as Array<{ _id: string; name: string }>;
    expect(services.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Fluoride Treatment', 'Cavity Filling', 'Teeth Whitening']),
    );
    for (const service of services) expect(Object.keys(service).sort()).toEqual(['_id', 'name']);
  });

  it("tells the clinic's contact details and opening hours", async () => {
    const response = await t.app.inject('/api/clinic');
    expect(response.json()).toMatchObject({
      name: 'Doctors Portal',
      hours: 'Sat - Fri, 10:00 AM to 10:00 PM',
      timeZone: 'America/New_York',
    });
  });

  it.each(['GET', 'POST'] as const)(
    'answers unknown API paths with 404 JSON (%s)',
    async (method) => {
      const response = await t.app.inject({ method, url: '/api/nope?x=1' });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/json');
      expect(response.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
    },
  );

  it('hides the cause of a server error from the client and logs it with the request id', async () => {
    const response = await t.app.inject('/api/test/explode');
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/secret|db\.ts|select/);
    expect(response.json()).toMatchObject({ statusCode: 500, error: 'Internal Server Error' });
    const logged = t.logs.find((log) => log.msg === 'request failed');
    expect(logged?.reqId).toBe(response.headers['x-request-id']);
  });

  it('refuses malformed JSON with a 400 that says why', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/service',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().message).toEqual(expect.any(String));
  });

  it('sends security headers', async () => {
    const response = await t.app.inject('/api/health');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('serves the OpenAPI description at /api/docs', async () => {
    const response = await t.app.inject('/api/docs/json');
    expect(response.statusCode).toBe(200);
    expect(response.json().paths).toHaveProperty('/api/service');
  });

  describe('serving the web app', () => {
    it.each([
      '/',
      '/home',
      '/appointment',
      '/about',
      '/login',
      '/signup',
      '/dashboard',
      '/dashboard/users',
      '/dashboard/payment/42',
    ])('answers the client route %s with the app page', async (url) => {
      const response = await t.app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    });

    it("carries the clinic's details, the same as /api/clinic, in a script element that never runs", async () => {
      const page = (await t.app.inject('/')).body;
      const json = page.match(
        /<script type="application\/json" id="clinic-data">(.*?)<\/script><\/head>/,
      )?.[1];
      expect(JSON.parse(String(json))).toEqual((await t.app.inject('/api/clinic')).json());
    });

    it('answers other page paths with the app page and 404', async () => {
      const response = await t.app.inject('/no-such-page');
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('<div id="root">');
    });

    it('caches hashed assets for a year', async () => {
      const response = await t.app.inject('/assets/index-abc123.js');
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it('caches other public files briefly', async () => {
      const response = await t.app.inject('/favicon.svg');
      expect(response.headers['cache-control']).toBe('public, max-age=3600');
    });
  });
});
