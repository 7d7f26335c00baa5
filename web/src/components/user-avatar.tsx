import { useState } from 'react';

/** 'Maya Cohen' → 'MC'; 'maya' → 'M'. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => word?.[0]?.toUpperCase() ?? '').join('') || '?';
}

/**
 * Whether the browser may show this picture: the portal's own uploads (same origin) and inline
 * images. Pictures hosted elsewhere (e.g. a social account's) would break the content security
 * policy, so those fall back to initials.
 */
function isOwnImage(url: string): boolean {
  if (url.startsWith('data:image/') || url.startsWith('blob:')) return true;
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

/**
 * A round avatar: the stored picture, or initials on the theme's dark colour when there is
 * none, it is hosted elsewhere, or it fails to load.
 */
export function UserAvatar({
  name,
  image,
  size = 'size-10',
}: {
  name: string;
  image?: string | null;
  size?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const src = image && failed !== image && isOwnImage(image) ? image : null;
  return (
    <div className="avatar avatar-placeholder shrink-0">
      <div className={`${size} rounded-full bg-neutral text-neutral-content ring-1 ring-base-300`}>
        {src ? (
          <img
            src={src}
            alt=""
            className="rounded-full object-cover"
            loading="lazy"
            decoding="async"
            onError={() => setFailed(src)}
          />
        ) : (
          <span aria-hidden="true" className="text-sm font-semibold">
            {initials(name)}
          </span>
        )}
      </div>
    </div>
  );
}
