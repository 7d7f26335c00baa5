import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config/env.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The validated configuration (config/env.ts). */
    config: Config;
  }
}

/** The portal's configuration, loaded and validated by the caller before the app is built. */
export const configPlugin = fp(
  async (app: FastifyInstance, options: { config: Config }) => {
    app.decorate('config', options.config);
  },
  { name: 'config' },
);
