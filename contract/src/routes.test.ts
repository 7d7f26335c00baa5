/// <reference types="node" />
// Node's types for this test alone, which reads the web app's router as text: the contract's own
// sources run in browsers too, and its build (tsconfig.build.json) leaves tests out.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isClientRoute, paths } from './routes.js';

/** Every route of `paths`, a route with a parameter called with `value` for it. */
function routesOfPaths(value: string): string[] {
  return Object.values(paths).map((route) => (typeof route === 'string' ? route : route(value)));
}

const ROUTER = new URL('../../web/src/app/router.tsx', import.meta.url);

/**
 * The paths the web app's router renders a screen for, read from its `<Route>` elements: nested
 * paths joined, index routes at their parent's path, pathless layouts adding nothing, and the
 * catch-all (`*`, the not-found screen) left out.
 */
function routesOfRouter(source: string): string[] {
  const found = new Set<string>();
  const parents: string[] = [''];
  const tags = /<Route\b|<\/Route>/g;
  for (let match = tags.exec(source); match; match = tags.exec(source)) {
    if (match[0] === '</Route>') {
      parents.pop();
      continue;
    }
    // The tag runs to the first '>' outside braces: `element={<Outlet />}` is inside one.
    let depth = 0;
    let end = match.index;
    for (; end < source.length; end += 1) {
      const char = source[end];
      if (char === '{') depth += 1;
      else if (char === '}') depth -= 1;
      else if (char === '>' && depth === 0) break;
    }
    const tag = source.slice(match.index, end + 1);
    const attributes = tag.replace(/\{[^{}]*(\{[^{}]*\}[^{}]*)*\}/g, '{}');
    const parent = parents.at(-1) ?? '';
    const segment = /\bpath="([^"]*)"/.exec(attributes)?.[1];
    const own = segment === undefined ? parent : `${parent}/${segment}`;
    if (segment !== '*' && (segment !== undefined || /\bindex\b/.test(attributes))) {
      found.add(own || '/');
    }
    if (!tag.endsWith('/>')) parents.push(own);
    tags.lastIndex = end + 1;
  }
  return [...found];
}

/** A route with its parameters' names replaced by ':', so that the names need not agree. */
const shape = (route: string) => route.replace(/:[^/]+/g, ':');

describe('the SPA routes', () => {
  it.each(routesOfPaths('0a1b2c3d-4e5f'))('answer %s with the app', (route) => {
    expect(isClientRoute(route)).toBe(true);
    if (route !== '/') expect(isClientRoute(`${route}/`)).toBe(true);
  });

  it.each([
    '//',
    '/homes',
    '/home/x',
    '/index.html',
    '/dashboard/nope',
    '/dashboard/payment',
    '/dashboard/payment/',
    '/dashboard/payment/a/b',
    '/dashboard/review//',
    '/dashboard/account/x',
    '/api/health',
    '/uploads/photo.webp',
    '/assets/index.js',
    '/Dashboard',
  ])('are not %s', (route) => {
    expect(isClientRoute(route)).toBe(false);
  });

  it('take any one segment as a parameter', () => {
    for (const id of ['abc', '42', '..42', 'a.b', '%20']) {
      expect(isClientRoute(paths.payment(id))).toBe(true);
    }
  });

  it("are the web app router's routes, each in `paths` and each of `paths` in it", () => {
    const router = routesOfRouter(readFileSync(ROUTER, 'utf8')).map(shape).sort();
    const table = routesOfPaths(':bookingId').map(shape).sort();
    // The reading of the router itself: if this fails, routesOfRouter no longer understands it.
    expect(router).toContain('/dashboard/payment/:');
    expect(router).toContain('/dashboard/account');
    expect(router).toEqual(table);
  });
});
