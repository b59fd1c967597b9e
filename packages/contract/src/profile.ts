/**
 * How a person is named, how a phone number is stored and what an avatar may be: one definition used by the
 * API (mails, pages, search results, profile and avatar upload) and the panel (labels, settings forms, file
 * input). No dependencies, so the panel imports it as `@tp/contract/profile` without pulling zod in.
 */

/** The parts of a user that name them (spec section 3 User). */
export interface NamedUser {
  givenName: string | null;
  familyName: string | null;
  nickname: string;
  usernameSuffix: number;
}

/** The username `nickname#suffix` (spec section 3 User `preferredUsername`; gift by username, user search). */
export function usernameOf(u: Pick<NamedUser, 'nickname' | 'usernameSuffix'>): string {
  return `${u.nickname}#${u.usernameSuffix}`;
}

/** Splits a username `nickname#1234` (suffix of 1-9 digits) into its parts; null when it is not one. */
export function parseUsername(value: string): { nickname: string; suffix: number } | null {
  const m = /^(.+)#(\d{1,9})$/.exec(value.trim());
  return m ? { nickname: m[1], suffix: Number(m[2]) } : null;
}

/** The nickname part of a username (everything before the last `#`); the value itself when it has none. */
export function nicknameOf(value: string): string {
  const i = value.lastIndexOf('#');
  return i > 0 ? value.slice(0, i) : value;
}

/** "Given Family" from the trimmed parts the person gave, or null when they gave none. */
export function fullName(u: Pick<NamedUser, 'givenName' | 'familyName'>): string | null {
  const name = [u.givenName, u.familyName]
    .map((x) => x?.trim())
    .filter(Boolean)
    .join(' ');
  return name || null;
}

/** How other people see a person (gift mails, door check-in): their full name, else their username. */
export function holderDisplayName(u: NamedUser): string {
  return fullName(u) ?? usernameOf(u);
}

/**
 * What a phone number may look like when typed: digits, spaces, `( ) -` and a leading `+`, with at least
 * three digits ("(-)" would be stored as an empty number).
 */
export const PHONE_PATTERN = /^\+?[ ()-]*(?:[0-9][ ()-]*){3,}$/;
/** Longest phone number accepted, in characters as typed. */
export const PHONE_MAX_LENGTH = 32;

/** A nickname (the part of a username before `#`): 1 to NICKNAME_MAX_LENGTH characters, no `#` nor whitespace. */
export const NICKNAME_MAX_LENGTH = 30;
export const NICKNAME_PATTERN = /^[^#\s]+$/;
/** A given or family name: 1 to NAME_MAX_LENGTH characters once trimmed. */
export const NAME_MAX_LENGTH = 100;

/**
 * The stored form of a phone number: a leading `+` kept, every other non-digit dropped, so that
 * "+61 400 000 001" and "+61400000001" are the same number (and collide as `api.profile.email_or_phone_in_use`).
 */
export function normalizePhone(value: string): string {
  return `${value.trim().startsWith('+') ? '+' : ''}${value.replace(/\D/g, '')}`;
}

/** Largest avatar upload, in bytes (10 MiB); larger answers `api.profile.avatar_too_large` (413). */
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;
/** Largest decoded avatar, in input pixels (width x height), against pixel floods. */
export const AVATAR_MAX_PIXELS = 40_000_000;
/** Recommended minimum avatar side, in pixels (spec sections 5, 9). */
export const AVATAR_MIN_RECOMMENDED_PX = 264;
/** Avatar formats (spec section 5: HEIC, WEBP, SVG, PNG, JPG) with their MIME types and file extensions. */
export const AVATAR_FORMATS = {
  heic: { mime: ['image/heic', 'image/heif'], ext: ['heic', 'heif'] },
  webp: { mime: ['image/webp'], ext: ['webp'] },
  svg: { mime: ['image/svg+xml'], ext: ['svg'] },
  png: { mime: ['image/png'], ext: ['png'] },
  jpg: { mime: ['image/jpeg'], ext: ['jpg', 'jpeg'] },
} as const;
/** MIME types of the avatar formats. */
export const AVATAR_MIME_TYPES: readonly string[] = Object.values(AVATAR_FORMATS).flatMap((f) => f.mime);
/** File extensions of the avatar formats, without the dot. */
export const AVATAR_EXTENSIONS: readonly string[] = Object.values(AVATAR_FORMATS).flatMap((f) => f.ext);
/** The `accept` attribute of an avatar file input: extensions, then MIME types. */
export const AVATAR_ACCEPT = [...AVATAR_EXTENSIONS.map((e) => `.${e}`), ...AVATAR_MIME_TYPES].join(',');
