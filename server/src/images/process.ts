import sharp, { type Metadata } from 'sharp';

/** What an upload may be, recognised by its first bytes; the name and declared type are ignored. */
export type ImageFormat = 'jpeg' | 'png' | 'webp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function sniffImageFormat(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'jpeg';
  }
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (
    bytes.length >= 12 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP'
  ) {
    return 'webp';
  }
  return null;
}

/**
 * At most 40 megapixels, about a 7300×5500 photo: more than any camera a clinic would use, and
 * a bound on the memory one decode may take, so that a small file declaring huge dimensions
 * (a decompression bomb) is refused before it is decoded.
 */
export const MAX_INPUT_PIXELS = 40_000_000;

/** Doctor avatars are shown small and round: a 512×512 square is plenty on any screen. */
export const AVATAR_SIZE = 512;

/** A refusal whose message tells the uploader what to do. */
export class ImageRejected extends Error {
  override name = 'ImageRejected';
}

export const imageErrors = {
  notAnImage: 'Only JPEG, PNG and WebP photos can be uploaded.',
  unreadable: 'This photo could not be read: it may be damaged. Try another file.',
  tooManyPixels: (width: number, height: number) =>
    `This photo is too large (${width}×${height} pixels): use one of at most 40 megapixels.`,
  noSuchImage: 'There is no such image.',
};

/**
 * Decodes an upload of one of the accepted formats and re-encodes it as a WebP avatar: turned
 * upright by its EXIF orientation, cropped to a centred square, and stripped of every piece of
 * metadata (EXIF, GPS, XMP, ICC, comments) since only the pixels are carried over. Any payload
 * hidden in the original file is thereby dropped.
 */
export async function toAvatarWebp(bytes: Buffer): Promise<Buffer> {
  const format = sniffImageFormat(bytes);
  if (!format) throw new ImageRejected(imageErrors.notAnImage);
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' as const, pages: 1 };
  let metadata: Metadata;
  try {
    // Only the header is read here: dimensions are checked before any pixel is decoded.
    metadata = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected(imageErrors.unreadable);
  }
  if (metadata.format !== format) throw new ImageRejected(imageErrors.unreadable);
  const { width = 0, height = 0 } = metadata;
  if (width * height > MAX_INPUT_PIXELS) {
    throw new ImageRejected(imageErrors.tooManyPixels(width, height));
  }
  try {
    return await sharp(bytes, { ...options, autoOrient: true })
      .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new ImageRejected(imageErrors.unreadable);
  }
}
