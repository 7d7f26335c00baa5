import type { ServerOptions } from 'node:http';

/**
 * How long the portal waits for a client, in milliseconds. Without limits a connection that
 * sends half a request and then nothing holds a file descriptor for as long as the client
 * likes: enough of them and the process can accept nothing more, `/api/health` included
 * (docs/reliability.md, Slow and idle clients).
 */
export interface Timeouts {
  /** The request's headers must have arrived in full this long after its first byte. */
  headers: number;
  /** The whole request, headers and body, must have arrived this long after its first byte. */
  request: number;
  /** A connection with no request in progress is closed after this long. */
  keepAlive: number;
  /** A connection on which no byte moves either way (an answer nobody reads) is closed. */
  idle: number;
}

/**
 * - headers, 15 s: a request's headers are a few kilobytes, which a phone on a poor 3G link
 *   sends in well under a second and a proxy forwards at once; 15 s leaves room for a lost
 *   packet or two. A client that dribbles headers holds its socket 15 s at most.
 * - request, 120 s: the largest body is a doctor's photo, up to 5 MB (IMAGE_MAX_BYTES) plus
 *   its form: 120 s is enough at about 350 kbit/s up, a poor mobile link. Other bodies are at
 *   most 1 MB.
 * - keep-alive, 10 s: a browser sends a page's requests (the page, its scripts, the API calls)
 *   within a second or two, and a patient's next click usually within a few seconds; after
 *   10 s idle the browser simply opens a new connection. A longer wait (Fastify's default is
 *   72 s, meant for servers behind a load balancer that keeps connections for 60 s) lets idle
 *   connections pile up on a portal that faces browsers itself. Behind a proxy that reuses
 *   connections to the portal, KEEP_ALIVE_TIMEOUT must exceed the proxy's idle timeout.
 * - idle, 120 s: no handler waits longer than this for anything; a client that stops reading
 *   its answer does not hold the socket for ever.
 */
export const TIMEOUTS: Timeouts = {
  headers: 15_000,
  request: 120_000,
  keepAlive: 10_000,
  idle: 120_000,
};

/**
 * Fastify's server options for these timeouts. Node checks the header and request deadlines
 * on a timer, every 30 s by default, which would stretch 15 s to 45 s. Here it runs four times a
 * second: a check walks the open connections in C++ (well under a millisecond for thousands),
 * and connections that arrived together in a burst are closed in small batches rather than all
 * in one turn of the event loop, which held other requests up for half a second in the test of
 * 3,000 at once (docs/reliability.md).
 */
const CHECK_INTERVAL = 250;

export function timeoutOptions(timeouts: Timeouts) {
  const request = Math.max(timeouts.request, timeouts.headers);
  const http: ServerOptions = {
    headersTimeout: timeouts.headers,
    requestTimeout: request,
    connectionsCheckingInterval: CHECK_INTERVAL,
  };
  return {
    connectionTimeout: timeouts.idle,
    keepAliveTimeout: timeouts.keepAlive,
    requestTimeout: request,
    http,
  };
}
