import type { Readable } from 'node:stream';
import type { ImagesConfig } from '../config/env.js';
import { diskStorage } from './disk-storage.js';
import { s3Storage } from './s3-storage.js';

/** Where the portal keeps uploaded images, and the URLs browsers fetch them from. */
export interface ImageStorage {
  readonly kind: ImagesConfig['storage'];
  /** Stores an image under a generated `name`; it is visible only once fully written. */
  save(name: string, data: Buffer, contentType: string): Promise<void>;
  /** Removes an image; removing one that is not there is no error. */
  remove(name: string): Promise<void>;
  exists(name: string): Promise<boolean>;
  /** The stored bytes, or null when there is no such image (for serving /uploads/). */
  read(name: string): Promise<{ body: Readable; size?: number } | null>;
  /** The URL the upload answers with and the doctor's `image` carries. */
  urlOf(name: string): string;
  /** The stored image's name behind a URL that `urlOf` gave, or null for any other URL. */
  nameOf(url: string): string | null;
  close(): void;
}

/** The path under which the portal serves images itself (always, for disk storage). */
export const UPLOADS_PATH = '/uploads';

/** A generated name: a random UUID and the format's extension. Nothing else is ever stored. */
export const IMAGE_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;

/** `urlOf` and `nameOf` for images published under `base` (a path or an absolute URL). */
export function publishedUnder(base: string): Pick<ImageStorage, 'urlOf' | 'nameOf'> {
  const prefix = `${base.replace(/\/+$/, '')}/`;
  return {
    urlOf: (name) => `${prefix}${name}`,
    nameOf: (url) => {
      if (!url.startsWith(prefix)) return null;
      const name = url.slice(prefix.length);
      return IMAGE_NAME.test(name) ? name : null;
    },
  };
}

export function createImageStorage(config: ImagesConfig): ImageStorage {
  return config.storage === 'disk' ? diskStorage(config.dir) : s3Storage(config);
}
