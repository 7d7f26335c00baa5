import type { Config } from '../config/env.js';
import { publishedUnder, UPLOADS_PATH } from '../images/storage.js';

export const PROFILE_IMAGE_MESSAGE =
  'A profile picture must be an image uploaded to the portal, or the picture of your Google account.';

/** Where Google serves the profile pictures its OpenID userinfo names. */
export const GOOGLE_PICTURE_ORIGIN = 'https://lh3.googleusercontent.com';
const GOOGLE_ISSUER = 'https://accounts.google.com';

/** A picture URL longer than this is no picture a provider or the portal would give. */
const IMAGE_URL_MAX_LENGTH = 2048;

/**
 * The origin the configured identity provider serves pictures from: Google's picture host for
 * Google, the issuer's own origin for another OpenID provider (the tests' local one); null when
 * no provider is configured.
 */
export function providerPictureOrigin(config: Pick<Config, 'auth'>): string | null {
  const google = config.auth.google;
  if (!google) return null;
  const issuer = new URL(google.issuer).origin;
  return issuer === GOOGLE_ISSUER ? GOOGLE_PICTURE_ORIGIN : issuer;
}

/**
 * Whether a profile picture URL may be stored: an image the portal stored itself (at
 * /uploads/, under PUBLIC_URL, or under the image storage's public base such as S3_PUBLIC_URL),
 * or a picture on the configured identity provider's picture host. Everything else (another
 * site, which would learn who looks at the picture, or a javascript: or data: URL) is refused.
 */
export function profileImageRule(
  config: Pick<Config, 'publicUrl' | 'images' | 'auth'>,
): (image: string) => boolean {
  const uploadBases = [UPLOADS_PATH, `${config.publicUrl}${UPLOADS_PATH}`];
  if (config.images.storage === 's3' && config.images.publicUrl) {
    uploadBases.push(config.images.publicUrl);
  }
  const uploads = uploadBases.map((base) => publishedUnder(base));
  const pictureOrigin = providerPictureOrigin(config);

  const fromProvider = (image: string) => {
    if (!pictureOrigin || !URL.canParse(image)) return false;
    const url = new URL(image);
    // The URL as written must be the URL as parsed: no credentials, spaces or other tricks.
    return url.origin === pictureOrigin && url.href === image && !url.username && !url.password;
  };

  return (image) =>
    image.length <= IMAGE_URL_MAX_LENGTH &&
    (uploads.some((base) => base.nameOf(image) !== null) || fromProvider(image));
}
