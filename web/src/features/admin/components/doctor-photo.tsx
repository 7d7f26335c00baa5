import { IMAGE_MAX_BYTES, IMAGE_TYPES, messages } from '@doctors-portal/contract';
import { useEffect, useState } from 'react';
import { Icon } from '../../../components/icon';

/** The photo input's accepted types, and the largest photo in megabytes. */
export const PHOTO_ACCEPT = IMAGE_TYPES.join(',');
export const PHOTO_MAX_MB = IMAGE_MAX_BYTES / (1024 * 1024);

/** What is wrong with the chosen photo, checked before it is sent; the server checks again. */
export function photoProblem(file: File | undefined): string | null {
  if (!file) return messages.imageRequired;
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return 'Choose a JPEG, PNG or WebP image.';
  }
  if (file.size === 0) return 'This file is empty. Choose another photo.';
  if (file.size > IMAGE_MAX_BYTES) {
    const size = (file.size / (1024 * 1024)).toFixed(1);
    return `This photo is ${size} MB. Choose one of ${PHOTO_MAX_MB} MB or less.`;
  }
  return null;
}

/** Said of a file whose type claims an image the browser cannot draw (a renamed document). */
export const PHOTO_UNREADABLE =
  'This file is not a readable image. Choose a JPEG, PNG or WebP photo.';

/** A local address for previewing the chosen photo, released when it changes. */
function usePreview(file: File | undefined) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file || !(IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setUrl(null);
      return;
    }
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}

function PhotoIcon() {
  return (
    <Icon className="size-8" strokeWidth={1.6}>
      <circle cx="12" cy="8.5" r="3.5" />
      <path d="M5 20a7 7 0 0 1 14 0" />
    </Icon>
  );
}

/**
 * The round photo beside the file input: the chosen file's preview, else `current` (the stored
 * photo, when editing), else a person icon.
 */
export function PhotoPreview({
  file,
  current,
  onUnreadable,
}: {
  file: File | undefined;
  current?: { url: string; alt: string } | undefined;
  /** The chosen file could not be drawn: the field says so, and no broken image shows. */
  onUnreadable: () => void;
}) {
  const preview = usePreview(file);
  return (
    <div
      className="flex size-24 shrink-0 items-center justify-center overflow-hidden rounded-full border border-base-300 bg-mint text-primary max-sm:self-center"
      aria-live="polite"
    >
      {preview ? (
        <img
          src={preview}
          alt={file ? `Preview of ${file.name}` : 'Preview'}
          className="size-full object-cover"
          onError={onUnreadable}
        />
      ) : current ? (
        <img src={current.url} alt={current.alt} className="size-full object-cover" />
      ) : (
        <PhotoIcon />
      )}
    </div>
  );
}
