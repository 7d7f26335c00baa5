import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, engine, type TestApp } from '../../test/helper.js';

/** Text in files beside the web build: none of it may ever reach a client. */
const OUTSIDE = 'OUTSIDE-THE-WEB-ROOT';
/** Text only the raw build's page has (the served page has the clinic's details added). */
const RAW_PAGE =
  '<!doctype html><head><title>Portal</title>' +
  '<script type="module" crossorigin src="/assets/index-abc123.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/react-abc123.js">' +
  '<link rel="stylesheet" crossorigin href="/assets/index-abc123.css"></head><div id="root"></div>';
const STYLESHEET = '.btn{color:teal}';

/**
 * A stand-in for the web build's prerender module: /about drawn with the clinic's phone, led by
 * the head hints React writes before a screen's markup.
 */
const PRERENDER_MODULE = `export async function prerenderPages(clinic) {
  return [
    { path: '/about', title: 'About us & more', html: '<link rel="preload" as="image" href="/team.svg"/><h1>About</h1><p>Call ' + clinic.phone + '</p>' },
  ];
}`;

/** The body of a page answer, decompressed as a browser would. */
function pageBody(reply: { headers: Record<string, unknown>; rawPayload: Buffer }): string {
  const encoding = reply.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(reply.rawPayload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(reply.rawPayload).toString('utf8');
  return reply.rawPayload.toString('utf8');
}

interface RawReply {
  status: number;
  type: string;
  body: string;
}

/**
 * A request with its target exactly as written: `fetch` and `inject` resolve '..' and '%2e%2e'
 * before sending, as browsers do, so they cannot send what a hand-made request can.
 */
function rawRequest(port: number, target: string, method = 'GET'): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: target, method, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            type: String(response.headers['content-type'] ?? ''),
            body,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe(`serving the web build (${engine})`, () => {
  let t: TestApp;
  let dir: string;
  let port: number;

  beforeAll(async () => {
    // dir/web is the build; dir/package.json and dir/secret.txt sit beside it.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-spa-'));
    const webRoot = path.join(dir, 'web');
    fs.mkdirSync(path.join(webRoot, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(webRoot, 'index.html'), RAW_PAGE);
    // The build writes compressed copies beside every page and asset.
    fs.writeFileSync(path.join(webRoot, 'index.html.br'), 'RAW-BROTLI-PAGE');
    fs.writeFileSync(path.join(webRoot, 'index.html.gz'), 'RAW-GZIP-PAGE');
    fs.writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js'), 'console.log(1)');
    fs.writeFileSync(path.join(webRoot, 'assets', 'index-abc123.css'), STYLESHEET);
    fs.mkdirSync(path.join(webRoot, '.ssr'));
    fs.writeFileSync(path.join(webRoot, '.ssr', 'prerender.js'), PRERENDER_MODULE);
    fs.writeFileSync(path.join(dir, 'package.json'), `{"name":"${OUTSIDE}"}`);
    fs.writeFileSync(path.join(dir, 'secret.txt'), OUTSIDE);
    t = await buildTestApp({ webRoot });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves /index.html as the same page as /, with the clinic data', async () => {
    const home = await t.app.inject('/');
    expect(home.body).toContain('id="clinic-data"');
    // Whether to offer Google sign-in is in it too: no Google client is configured here.
    expect(home.body).toContain('"signInWithGoogle":false');
    // Compressed once when the server starts, sent as the client accepts it.
    for (const [accepted, encoding] of [
      [undefined, undefined],
      ['gzip', 'gzip'],
      ['br', 'br'],
      ['br, gzip, deflate', 'br'],
      ['gzip, br;q=0', 'gzip'],
      ['deflate', undefined],
    ]) {
      const page = await t.app.inject({
        url: '/index.html',
        headers: accepted ? { 'accept-encoding': accepted } : {},
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-encoding'], String(accepted)).toBe(encoding);
      expect(page.headers.vary).toBe('accept-encoding');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(pageBody(page)).toBe(home.body);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/index.html' });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(home.body));
    // The build's compressed copies of the raw page are not served either.
    for (const url of ['/index.html.br', '/index.html.gz']) {
      const copy = await t.app.inject(url);
      expect(copy.statusCode).toBe(404);
      expect(copy.body).toBe(home.body);
    }
  });

  it('sends a prerendered screen drawn in the page, with its title and the clinic data', async () => {
    const about = await t.app.inject({ url: '/about', headers: { 'accept-encoding': 'br' } });
    expect(about.statusCode).toBe(200);
    const html = pageBody(about);
    expect(html).toContain(
      `<div id="root"><h1>About</h1><p>Call ${t.config.clinic.phone}</p></div>`,
    );
    expect(html).toContain('<title>About us &amp; more</title>');
    expect(html).toContain('id="clinic-data"');
    // The screen's own hints join the head.
    expect(html).toMatch(/<link rel="preload" as="image" href="\/team.svg"\/>.*<\/head>/);
  });

  it('paints a prerendered page first: its stylesheet inside, the app asked for after', async () => {
    const about = await t.app.inject('/about');
    const html = about.body;
    expect(html).toContain(`<style>${STYLESHEET}</style>`);
    expect(html).not.toContain('rel="stylesheet"');
    // No module is fetched before the first paint; an inline script asks for them after it.
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).not.toContain('src="/assets/index-abc123.js"');
    const script = html.match(/<script type="module">(.*?)<\/script>/)?.[1] ?? '';
    expect(script).toContain('getEntriesByName("first-contentful-paint")');
    expect(script).toContain('["/assets/react-abc123.js"]');
    expect(script).toContain('import("/assets/index-abc123.js")');

    // The content security policy admits exactly these two inline texts, besides 'self'.
    const sha256 = (text: string) =>
      `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`;
    const policy = String(about.headers['content-security-policy']);
    expect(policy).toContain(`script-src 'self' ${sha256(script)};`);
    expect(policy).toContain(`style-src 'self' ${sha256(STYLESHEET)};`);

    // Every other page keeps the build's links, and the policy admits nothing inline.
    const shell = await t.app.inject('/dashboard');
    expect(shell.body).toContain(
      '<link rel="stylesheet" crossorigin href="/assets/index-abc123.css">',
    );
    expect(shell.body).toContain(
      '<script type="module" crossorigin src="/assets/index-abc123.js">',
    );
    expect(shell.headers['content-security-policy']).not.toContain('sha256');
  });

  it('leaves every other page, and a prerendered one asked with a query, to the app', async () => {
    const shell = (await t.app.inject('/')).body;
    expect(shell).toContain('<div id="root"></div>');
    for (const url of ['/about?from=mail', '/dashboard', '/about/']) {
      expect((await t.app.inject(url)).body, url).toBe(shell);
    }
    // The module itself is part of the build, not of the site.
    for (const url of ['/.ssr/prerender.js', '/.ssr/']) {
      const module = await t.app.inject(url);
      expect(module.statusCode, url).toBe(404);
      expect(module.body).toBe(shell);
    }
  });

  it.each(
    [
      `/api/${'a'.repeat(5000)}`,
      `/${'a'.repeat(5000)}`,
      `/assets/${'a'.repeat(3000)}.js`,
      '/api/%2e%2e/x',
      '/api/../x',
      '/api/auth/../health',
      '/api/./health',
      '/uploads/../x',
      '/uploads/..%2f..%2fetc/passwd',
      '/uploads/%2e%2e/%2e%2e/secret.txt',
      '/assets/../../package.json',
      '/assets/../../secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2E%2E/%2E%2E/secret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/assets/../index.html',
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/./index.html',
      '/assets/.',
    ].map((target) => [
      target.length > 100 ? `${target.slice(0, 12)}… (${target.length} characters)` : target,
      target,
    ]),
  )(
    'answers %s with a 400 or 404 in JSON, never a 403 or a file outside the web root',
    async (_label, target) => {
      for (const method of ['GET', 'HEAD']) {
        const reply = await rawRequest(port, target, method);
        expect([400, 404], `${method} ${target.slice(0, 80)}`).toContain(reply.status);
        expect(reply.type).toBe('application/json; charset=utf-8');
        if (method === 'HEAD') continue;
        expect(reply.body).not.toContain(OUTSIDE);
        expect(JSON.parse(reply.body)).toEqual({
          statusCode: reply.status,
          error: reply.status === 400 ? 'Bad Request' : 'Not Found',
          message: expect.stringMatching(/^The address /),
        });
      }
    },
  );

  it.each([
    ['/api//health', 'json'],
    ['/uploads//x', 'json'],
    ['/uploads/a%5cb', 'json'],
    ['//x', 'page'],
    ['//assets/index-abc123.js', 'page'],
    ['/assets//index-abc123.js', 'page'],
    ['/assets/', 'page'],
    ['/a%5cb', 'page'],
  ])(
    'answers %s, which the file handler will not serve, as not found (%s), never 403',
    async (target, kind) => {
      const reply = await rawRequest(port, target);
      expect(reply.status).toBe(404);
      if (kind === 'json') {
        expect(reply.type).toBe('application/json; charset=utf-8');
        expect(JSON.parse(reply.body)).toMatchObject({ statusCode: 404, error: 'Not Found' });
      } else {
        expect(reply.type).toBe('text/html; charset=utf-8');
        expect(reply.body).toContain('id="clinic-data"');
      }
    },
  );

  it('still serves real addresses with dots and long parts', async () => {
    expect((await rawRequest(port, '/assets/index-abc123.js')).status).toBe(200);
    expect((await rawRequest(port, '/api/health')).status).toBe(200);
    // Dots inside a segment are a part of a name, not a segment of their own.
    const email = `${'a.'.repeat(60)}..x@mail.com`;
    const admin = await rawRequest(port, `/api/admin/${email}`);
    expect(admin.status).toBe(401);
    const page = await rawRequest(port, '/dashboard/payment/..42');
    expect(page.status).toBe(200);
    expect(page.body).toContain('id="clinic-data"');
  });
});

describe(`a prerender module that fails (${engine})`, () => {
  it('leaves every page to the app and says so in the log', async () => {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-spa-'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), RAW_PAGE);
    fs.mkdirSync(path.join(webRoot, '.ssr'));
    fs.writeFileSync(
      path.join(webRoot, '.ssr', 'prerender.js'),
      "export async function prerenderPages() { throw new Error('no document'); }",
    );
    const t = await buildTestApp({ webRoot });
    try {
      const about = await t.app.inject('/about');
      expect(about.statusCode).toBe(200);
      expect(about.body).toContain('<div id="root"></div>');
      expect(t.logs).toContainEqual(
        expect.objectContaining({
          level: 50,
          msg: 'The public pages could not be prerendered: the app draws them',
        }),
      );
    } finally {
      await t.close();
      fs.rmSync(webRoot, { recursive: true, force: true });
    }
  });
});

describe(`a build that wrote each prerendered page's own rules (${engine})`, () => {
  const OWN_RULES = '.about{color:navy}';
  /** A build whose prerender draws /about and /login, with `pageStyles` as its rules file. */
  async function serve(pageStyles: string) {
    const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-spa-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), RAW_PAGE);
    fs.writeFileSync(path.join(webRoot, 'assets', 'index-abc123.css'), STYLESHEET);
    fs.mkdirSync(path.join(webRoot, '.ssr'));
    fs.writeFileSync(
      path.join(webRoot, '.ssr', 'prerender.js'),
      `export async function prerenderPages() {
        return [
          { path: '/about', title: 'About', html: '<h1 class="about">About</h1>' },
          { path: '/login', title: 'Login', html: '<h1>Login</h1>' },
        ];
      }`,
    );
    fs.writeFileSync(path.join(webRoot, '.ssr', 'page-styles.json'), pageStyles);
    const t = await buildTestApp({ webRoot });
    return {
      t,
      close: async () => {
        await t.close();
        fs.rmSync(webRoot, { recursive: true, force: true });
      },
    };
  }
  const sha256 = (text: string) =>
    `'sha256-${crypto.createHash('sha256').update(text).digest('base64')}'`;
  const scriptOf = (html: string) => html.match(/<script type="module">(.*?)<\/script>/)?.[1] ?? '';

  it('paints a page with its own rules, then links the whole stylesheet before the app starts', async () => {
    const { t, close } = await serve(
      JSON.stringify({ stylesheet: 'assets/index-abc123.css', pages: { '/about': OWN_RULES } }),
    );
    try {
      const about = await t.app.inject('/about');
      expect(about.body).toContain(`<style>${OWN_RULES}</style>`);
      expect(about.body).not.toContain(STYLESHEET);
      const script = scriptOf(about.body);
      expect(script).toContain('sheet.href="/assets/index-abc123.css"');
      expect(script).toContain(
        'const run=()=>import("/assets/index-abc123.js");sheet.onload=run;sheet.onerror=run;',
      );
      const policy = String(about.headers['content-security-policy']);
      expect(policy).toContain(`script-src 'self' ${sha256(script)};`);
      expect(policy).toContain(`style-src 'self' ${sha256(OWN_RULES)};`);

      // A page the build wrote no rules for carries the whole stylesheet, and links nothing.
      const login = await t.app.inject('/login');
      expect(login.body).toContain(`<style>${STYLESHEET}</style>`);
      expect(scriptOf(login.body)).not.toContain('sheet');
      expect(login.headers['content-security-policy']).toContain(
        `style-src 'self' ${sha256(STYLESHEET)};`,
      );
    } finally {
      await close();
    }
  });

  it.each([
    [
      'rules written for another stylesheet',
      JSON.stringify({ stylesheet: 'assets/index-old999.css', pages: { '/about': OWN_RULES } }),
      40,
    ],
    ['a rules file that is not JSON', '{"stylesheet":', 50],
    [
      'rules that are not text',
      JSON.stringify({ stylesheet: 'assets/index-abc123.css', pages: { '/about': 42 } }),
      50,
    ],
  ])('carries the whole stylesheet in every page given %s, and logs it', async (_, file, level) => {
    const { t, close } = await serve(file);
    try {
      const about = await t.app.inject('/about');
      expect(about.statusCode).toBe(200);
      expect(about.body).toContain(`<style>${STYLESHEET}</style>`);
      expect(about.body).not.toContain(OWN_RULES);
      expect(scriptOf(about.body)).not.toContain('sheet');
      expect(t.logs).toContainEqual(
        expect.objectContaining({ level, msg: expect.stringContaining('page-styles.json') }),
      );
    } finally {
      await close();
    }
  });
});
