/**
 * Hashing and comparing secrets, the one way the API does it (issue 43): SHA-256 of high-entropy secrets (API
 * keys, door keys, refresh tokens, resale codes: random enough that no slow hash is needed) and comparisons in time
 * independent of where two values differ. Sign-in codes are peppered HMACs (auth.sign-in.ts) compared with
 * `sameBytes`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a UTF-8 string, as 32 bytes. */
export const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** SHA-256 of a UTF-8 string, hex (64 characters): how hashed secrets are stored. */
export const sha256Hex = (value: string): string => sha256(value).toString('hex');

/** Whether two byte strings are equal, in time independent of where they differ (false when lengths differ). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.length > 0 && timingSafeEqual(a, b);
}

/** Whether a stored hex SHA-256 hash equals another, in constant time; a stored hash that is absent (null) matches none. */
export const sameHash = (stored: string | null, b: string): boolean =>
  stored !== null && sameBytes(Buffer.from(stored, 'hex'), Buffer.from(b, 'hex'));

/**
 * Whether a presented secret equals the expected one: both hashed first, so the time is the same whatever their
 * lengths. False for an empty presented value.
 */
export const sameSecret = (presented: string, expected: string): boolean =>
  presented.length > 0 && sameBytes(sha256(presented), sha256(expected));
