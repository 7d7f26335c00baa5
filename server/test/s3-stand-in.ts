import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An object as the stand-in keeps it. */
export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

export interface S3StandIn {
  /** The endpoint to give the S3 client (path-style: /<bucket>/<key>). */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, StoredObject>;
  /** Every request received, as 'METHOD /bucket/key'. */
  requests: string[];
  /** The S3_* variables that point the portal at this stand-in. */
  env(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

const xmlError = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;

/**
 * A small S3-compatible server for tests: one bucket, objects kept in memory, and the four calls
 * the portal makes (PutObject, GetObject, HeadObject, DeleteObject) over plain HTTP with
 * path-style addressing. It checks that each request is signed (AWS Signature V4) with its
 * access key id, not the signature itself.
 */
export async function startS3StandIn(bucket = 'clinic-photos'): Promise<S3StandIn> {
  const accessKeyId = 'AKIATESTSTANDIN';
  const secretAccessKey = 'stand-in-secret-access-key';
  const objects = new Map<string, StoredObject>();
  const requests: string[] = [];

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stand-in');
      const [, bucketName, ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      requests.push(`${request.method} ${url.pathname}`);
      const reply = (status: number, body = '', headers: Record<string, string> = {}) => {
        response.writeHead(status, { 'x-amz-request-id': 'stand-in', ...headers });
        response.end(request.method === 'HEAD' ? undefined : body);
      };
      const signed = (request.headers.authorization ?? '').startsWith(
        `AWS4-HMAC-SHA256 Credential=${accessKeyId}/`,
      );
      if (!signed) return reply(403, xmlError('AccessDenied', 'Access Denied'));
      if (bucketName !== bucket || !key) {
        return reply(404, xmlError('NoSuchBucket', 'The specified bucket does not exist'));
      }
      const stored = objects.get(key);
      switch (request.method) {
        case 'PUT':
          objects.set(key, {
            body: Buffer.concat(chunks),
            contentType: request.headers['content-type'],
            cacheControl: request.headers['cache-control'],
          });
          return reply(200, '', { etag: '"stand-in"' });
        case 'GET':
        case 'HEAD':
          if (!stored)
            return reply(404, xmlError('NoSuchKey', 'The specified key does not exist.'));
          response.writeHead(200, {
            'content-type': stored.contentType ?? 'application/octet-stream',
            'content-length': String(stored.body.length),
            etag: '"stand-in"',
          });
          return response.end(request.method === 'HEAD' ? undefined : stored.body);
        case 'DELETE':
          objects.delete(key);
          return reply(204);
        default:
          return reply(405, xmlError('MethodNotAllowed', 'Not supported by the stand-in'));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    requests,
    env: (extra = {}) => ({
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      ...extra,
    }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
