import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { ImagesConfig } from '../config/env.js';
import { IMAGE_NAME, type ImageStorage, publishedUnder, UPLOADS_PATH } from './storage.js';

type S3Config = Extract<ImagesConfig, { storage: 's3' }>;

const isNotFound = (error: unknown) =>
  (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * Images as objects in an S3 bucket (AWS, or an S3-compatible service at S3_ENDPOINT with
 * path-style addressing). Browsers fetch them from S3_PUBLIC_URL when set, otherwise through
 * the portal at /uploads/, which reads them from the bucket.
 */
export function s3Storage(config: S3Config): ImageStorage {
  const client = new S3Client({
    region: config.region,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
    // Checksums only where S3 requires them: several S3-compatible services reject the newer
    // default trailing checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5000, requestTimeout: 20_000 },
  });
  const Bucket = config.bucket;
  const keyOf = (name: string) => {
    if (!IMAGE_NAME.test(name)) throw new Error(`not a stored image name: ${name}`);
    return name;
  };
  return {
    kind: 's3',
    ...publishedUnder(config.publicUrl ?? UPLOADS_PATH),
    async save(name, data, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: keyOf(name),
          Body: data,
          ContentType: contentType,
          // Names are generated and never reused: caches may keep an image for good.
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },
    async remove(name) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(name) }));
    },
    async exists(name) {
      if (!IMAGE_NAME.test(name)) return false;
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: name }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },
    async read(name) {
      if (!IMAGE_NAME.test(name)) return null;
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: name }));
        if (!object.Body) return null;
        return { body: object.Body as Readable, size: object.ContentLength };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    close() {
      client.destroy();
    },
  };
}
