/**
 * Settings account rules of spec section 5. Messages are catalogue keys shown only when a field is touched
 * and in error. Mirrors the API's limits (packages/contract/src/auth.ts: names 1-100 characters, nickname
 * 1-30 without '#' or spaces, phone 3-32 of digits, spaces, ( ) - and a leading +).
 */
import * as z from 'zod';

/** Avatar formats (spec section 5) by MIME type and file extension; 10 MB at most (the API's limit). */
export const AVATAR_ACCEPT =
  '.heic,.heif,.webp,.svg,.png,.jpg,.jpeg,image/heic,image/heif,image/webp,image/svg+xml,image/png,image/jpeg';
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;
/** Recommended minimum size in pixels (spec sections 5, 9). */
export const AVATAR_MIN_RECOMMENDED = 264;
const AVATAR_TYPES = ['image/heic', 'image/heif', 'image/webp', 'image/svg+xml', 'image/png', 'image/jpeg'];
const AVATAR_EXT = /\.(heic|heif|webp|svg|png|jpe?g)$/i;

/** The message key that refuses a chosen avatar file, or null when it may be uploaded. */
export function avatarFileError(file: { name: string; type: string; size: number }): string | null {
  if (!AVATAR_TYPES.includes(file.type.toLowerCase()) && !AVATAR_EXT.test(file.name))
    return 'api.profile.avatar_invalid';
  if (file.size > AVATAR_MAX_BYTES) return 'api.profile.avatar_too_large';
  if (file.size === 0) return 'api.profile.avatar_invalid';
  return null;
}

export const nicknameSchema = z.object({
  nickname: z
    .string()
    .trim()
    .min(1, 'validation.username_empty')
    .max(30, 'account.nickname_too_long')
    .regex(/^[^#\s]+$/, 'account.nickname_invalid'),
});

const name = (required: string, empty: string) =>
  z
    .string()
    .min(1, required)
    .refine((v) => v.trim().length > 0, empty)
    .refine((v) => v.trim().length <= 100, 'account.name_too_long');

export const nameSchema = z.object({
  givenName: name('validation.first_name_required', 'validation.first_name_empty'),
  familyName: name('validation.last_name_required', 'validation.last_name_empty'),
});

/** The form the API stores a phone number in: a leading + kept, other non-digits dropped. */
export const normalizePhone = (v: string) => `${v.trim().startsWith('+') ? '+' : ''}${v.replace(/\D/g, '')}`;

export const phoneSchema = z.object({
  phoneNumber: z
    .string()
    .trim()
    .min(1, 'validation.phone_required')
    .regex(/^\+?[0-9 ()-]+$/, 'account.phone_invalid')
    .refine((v) => v.replace(/\D/g, '').length >= 3 && v.length <= 32, 'account.phone_invalid'),
});

export type NicknameForm = z.infer<typeof nicknameSchema>;
export type NameForm = z.infer<typeof nameSchema>;
export type PhoneForm = z.infer<typeof phoneSchema>;
