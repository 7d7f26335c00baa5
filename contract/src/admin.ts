import { z } from 'zod';
import { messages } from './messages.js';
import { emailField, nameField } from './validation.js';

/** A user as the admin list shows it (spec section 3: `Role` is 'Admin' for admins). */
export const userSchema = z.object({
  _id: z.string(),
  email: z.string(),
  displayName: z.string(),
  photoURL: z.string().nullable(),
  Role: z.literal('Admin').optional(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** `GET /api/users?limit=&offset=`: one page of users, oldest first; the total is in `X-Total-Count`. */
export const usersQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export const USERS_PAGE_SIZE = 50;

/** A doctor (spec section 3); `image` is a URL the portal's own image upload returned. */
export const doctorSchema = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  specialty: z.string(),
  image: z.string(),
});
export type Doctor = z.infer<typeof doctorSchema>;

/** The add-doctor form (spec section 5); the photo is checked as a file before upload. */
export const doctorFormSchema = z.object({
  name: nameField,
  email: emailField(),
  specialty: z.string({ error: 'Specialty is Required' }).min(1, 'Specialty is Required'),
});

/** `POST /api/doctor`. */
export const newDoctorSchema = doctorFormSchema.extend({
  image: z.string({ error: messages.imageRequired }).min(1, messages.imageRequired).max(500),
});
export type NewDoctor = z.infer<typeof newDoctorSchema>;

/** `POST /api/image` answers like the spec's image host. */
export const imageUploadResultSchema = z.object({
  success: z.literal(true),
  data: z.object({ url: z.string() }),
});

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
