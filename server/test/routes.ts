import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** One route as the server registered it: `GET /api/booking/:id`. */
export interface RegisteredRoute {
  method: string;
  url: string;
}

export const routeKey = (route: RegisteredRoute) => `${route.method} ${route.url}`;

/**
 * Builds an app while recording every route it registers, as the server itself declares them:
 * an `onRoute` hook is added to each Fastify instance the moment it is created (Fastify's
 * `fastify.initialization` diagnostics channel), before any of its routes exist.
 */
export async function withRouteList<T>(
  build: () => Promise<T>,
): Promise<{ built: T; routes: RegisteredRoute[] }> {
  const routes: RegisteredRoute[] = [];
  const channel = diagnostics.channel('fastify.initialization');
  const subscriber = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) routes.push({ method, url: route.url });
    });
  };
  channel.subscribe(subscriber);
  try {
    const built = await build();
    return { built, routes: dedupe(routes) };
  } finally {
    channel.unsubscribe(subscriber);
  }
}

function dedupe(routes: RegisteredRoute[]): RegisteredRoute[] {
  const seen = new Map<string, RegisteredRoute>();
  for (const route of routes) seen.set(routeKey(route), route);
  return [...seen.values()].sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
}

/**
 * The portal's API surface that the authorisation matrix and the fuzzer must cover: every
 * route under /api except the OpenAPI browser (/api/docs) and the auth library's own
 * catch-all (/api/auth/*), plus the uploaded images at /uploads/:name.
 */
export function apiRoutes(routes: RegisteredRoute[]): RegisteredRoute[] {
  return routes.filter(
    ({ method, url }) =>
      method !== 'HEAD' &&
      ((url.startsWith('/api/') && !url.startsWith('/api/docs') && !url.startsWith('/api/auth/')) ||
        url.startsWith('/uploads/')),
  );
}
