import { imageUploadResultSchema } from '@doctors-portal/contract';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';

/** `POST /api/image` (multipart, field `image`): answers the stored photo's URL. */
export async function uploadImage(file: File): Promise<string> {
  const body = new FormData();
  body.append('image', file);
  const answer = await api<unknown>('/image', { method: 'POST', body });
  const stored = imageUploadResultSchema.safeDecode(
    answer as z.input<typeof imageUploadResultSchema>,
  );
  if (!stored.success || !stored.data.data.url) {
    throw new Error('The photo could not be stored. Please try again.');
  }
  return stored.data.data.url;
}

/** Uploads a photo; nothing cached changes until it is used. */
export function useUploadImage() {
  return useMutation({ mutationFn: uploadImage });
}
