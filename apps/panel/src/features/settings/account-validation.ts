/**
 * Settings account rules of spec section 5. Messages are catalogue keys shown only when a field is touched
 * and in error. The limits are the contract's (`@tp/contract/profile`: NAME_MAX_LENGTH, NICKNAME_MAX_LENGTH and
 * NICKNAME_PATTERN, PHONE_PATTERN and PHONE_MAX_LENGTH), the ones the API checks.
 */
import * as z from 'zod';
import {
  AVATAR_EXTENSIONS,
  AVATAR_MAX_BYTES,
  AVATAR_MIME_TYPES,
  NAME_MAX_LENGTH,
  NICKNAME_MAX_LENGTH,
  NICKNAME_PATTERN,
  PHONE_MAX_LENGTH,
  PHONE_PATTERN,
} from '@tp/contract/profile';

const extensionOf = (name: string) => name.slice(name.lastIndexOf('.') + 1).toLowerCase();

/**
 * The message key that refuses a chosen avatar file, or null when it may be uploaded: one of the contract's
 * avatar formats (by MIME type or extension) and at most its AVATAR_MAX_BYTES, as the API checks.
 */
export function avatarFileError(file: { name: string; type: string; size: number }): string | null {
  if (
    !AVATAR_MIME_TYPES.includes(file.type.toLowerCase()) &&
    !(file.name.includes('.') && AVATAR_EXTENSIONS.includes(extensionOf(file.name)))
  )
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
    .max(NICKNAME_MAX_LENGTH, 'account.nickname_too_long')
    .regex(NICKNAME_PATTERN, 'account.nickname_invalid'),
});

const name = (required: string, empty: string) =>
  z
    .string()
    .min(1, required)
    .refine((v) => v.trim().length > 0, empty)
    .refine((v) => v.trim().length <= NAME_MAX_LENGTH, 'account.name_too_long');

export const nameSchema = z.object({
  givenName: name('validation.first_name_required', 'validation.first_name_empty'),
  familyName: name('validation.last_name_required', 'validation.last_name_empty'),
});

export const phoneSchema = z.object({
  phoneNumber: z
    .string()
    .trim()
    .min(1, 'validation.phone_required')
    .regex(PHONE_PATTERN, 'account.phone_invalid')
    .refine((v) => v.replace(/\D/g, '').length >= 3 && v.length <= PHONE_MAX_LENGTH, 'account.phone_invalid'),
});

export type NicknameForm = z.infer<typeof nicknameSchema>;
export type NameForm = z.infer<typeof nameSchema>;
export type PhoneForm = z.infer<typeof phoneSchema>;
