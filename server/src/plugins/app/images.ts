import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createImageStorage, type ImageStorage } from '../../images/storage.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where uploaded images live (see `createImageStorage`). */
    images: ImageStorage;
  }
}

/** Uploaded images: on disk under DATA_DIR, or in S3-compatible storage when configured. */
export const imagesPlugin = fp(
  async (app: FastifyInstance) => {
    const images = createImageStorage(app.config.images);
    app.decorate('images', images);
    app.addHook('onClose', async () => {
      images.close();
    });
  },
  { name: 'images', dependencies: ['config'] },
);
