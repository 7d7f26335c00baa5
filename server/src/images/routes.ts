import { randomUUID } from 'node:crypto';
import { IMAGE_MAX_BYTES, imageUploadResultSchema, messages } from '@doctors-portal/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdmin } from '../auth/guards.js';
import { errorResponseSchema as error, errorBody } from '../http/errors.js';
import { ImageRejected, imageErrors, toAvatarWebp } from './process.js';
import { IMAGE_NAME } from './storage.js';

/** The form field the photo travels in, as the spec's image host names it. */
export const IMAGE_FIELD = 'image';

/** Room for the multipart framing around a photo of the largest size accepted. */
const MULTIPART_OVERHEAD = 64 * 1024;

export const uploadErrors = {
  tooLarge: `The photo is larger than ${IMAGE_MAX_BYTES / 1024 / 1024} MB: choose a smaller one.`,
  notMultipart: `Send the photo as multipart/form-data in the field "${IMAGE_FIELD}".`,
  wrongField: `Send the photo in the field "${IMAGE_FIELD}".`,
  malformed: 'The upload could not be read: send one photo in a multipart/form-data form.',
};

/**
 * Busboy's limits for one upload: a single file of at most IMAGE_MAX_BYTES (the stream is cut
 * there, so a larger file is never held whole) and a few small fields at most.
 */
const LIMITS = {
  fileSize: IMAGE_MAX_BYTES,
  files: 1,
  fields: 5,
  fieldSize: 1024,
  parts: 6,
  headerPairs: 20,
};

/** `POST /api/image`: the portal's own image host for doctors' photos (admins only). */
export const imageRoutes: FastifyPluginAsyncZod = async (app) => {
  // Registered in this plugin's scope only: no other route accepts multipart bodies.
  await app.register(multipart, { limits: LIMITS });

  app.post(
    '/image',
    {
      // As the request arrives: an upload by anyone but an admin is never read.
      onRequest: requireAdmin,
      schema: {
        operationId: 'uploadImage',
        summary: "Upload a doctor's photo; answers the URL it is served at",
        description:
          `A multipart/form-data form with the photo in the field \`${IMAGE_FIELD}\`. JPEG, PNG ` +
          `and WebP are recognised by their bytes (not the file name or declared type), up to ` +
          `${IMAGE_MAX_BYTES / 1024 / 1024} MB and 40 megapixels. The photo is re-encoded as a ` +
          '512×512 WebP without metadata and stored under a generated name. Anything else ' +
          'answers 400 and stores nothing.',
        tags: ['admin'],
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        response: { 201: imageUploadResultSchema, 400: error, 401: error, 403: error },
      },
    },
    async (request, reply) => {
      // Every refused photo is a 400 with its reason, one too large among them (a body too large
      // for any other route is a 413).
      const refuse = (message: string) => reply.code(400).send(errorBody(400, message));
      // A body declared larger than any acceptable upload is refused before it is read.
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared > IMAGE_MAX_BYTES + MULTIPART_OVERHEAD) return refuse(uploadErrors.tooLarge);
      if (!request.isMultipart()) return refuse(uploadErrors.notMultipart);

      // The whole form is read (one file at most, a few small fields), so that a form with a
      // second file or cut short is refused rather than half taken.
      let bytes: Buffer | undefined;
      let otherField = false;
      try {
        for await (const part of request.parts({ limits: LIMITS })) {
          if (part.type !== 'file') continue;
          if (part.fieldname === IMAGE_FIELD) {
            bytes = await part.toBuffer();
          } else {
            otherField = true;
            part.file.resume();
          }
        }
      } catch (err) {
        // Everything that fails here is the upload's own framing: too large, too many parts,
        // no boundary, cut short.
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          return refuse(uploadErrors.tooLarge);
        }
        request.log.info({ err }, 'malformed upload');
        return refuse(uploadErrors.malformed);
      }
      if (otherField) return refuse(uploadErrors.wrongField);
      if (!bytes || bytes.length === 0) return refuse(messages.imageRequired);

      let webp: Buffer;
      try {
        webp = await toAvatarWebp(bytes);
      } catch (err) {
        if (err instanceof ImageRejected) return refuse(err.message);
        throw err;
      }
      const name = `${randomUUID()}.webp`;
      await app.images.save(name, webp, 'image/webp');
      request.log.info({ image: name, bytes: webp.length }, 'image stored');
      return reply.code(201).send({ success: true, data: { url: app.images.urlOf(name) } });
    },
  );
};

/** The content type of each stored format, by the extension its generated name carries. */
const CONTENT_TYPES: Record<string, string> = { '.webp': 'image/webp' };

/**
 * `GET /uploads/{name}`: the stored images, with their format's content type and `nosniff`.
 * Names are generated and never reused, so browsers and proxies may keep them for a year.
 */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/uploads/:name',
    { schema: { hide: true, params: z.object({ name: z.string() }) } },
    async (request, reply) => {
      const { name } = request.params;
      const image = IMAGE_NAME.test(name) ? await app.images.read(name) : null;
      if (!image) return reply.code(404).send(errorBody(404, imageErrors.noSuchImage));
      const type = CONTENT_TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
      reply
        .header('content-type', type)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=31536000, immutable');
      if (image.size !== undefined) reply.header('content-length', image.size);
      return reply.send(image.body);
    },
  );
};
