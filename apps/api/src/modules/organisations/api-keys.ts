/**
 * Organisation API keys (issue 12): `tpk_<8 characters>_<43 characters>`, 256 random bits. Only the SHA-256 of
 * the whole key is stored (a high-entropy random key needs no slow hash); the first part (`tpk_` + 8
 * characters) is the key's public prefix, shown in lists and used to find its row before the hashes are
 * compared in constant time.
 */
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../../lib/secrets.js';

/** What a new key is: the key (shown once), its public prefix and the hash stored. */
export interface NewApiKey {
  apiKey: string;
  prefix: string;
  keyHash: string;
}

const KEY_SHAPE = /^(tpk_[A-Za-z0-9_-]{8})_[A-Za-z0-9_-]{43}$/;

/** SHA-256 of a key, hex: what is stored. */
export const hashKey = sha256Hex;

/** A new random API key with its prefix and hash. */
export function newApiKey(): NewApiKey {
  const prefix = `tpk_${randomBytes(6).toString('base64url')}`;
  const apiKey = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { apiKey, prefix, keyHash: hashKey(apiKey) };
}

/** The public prefix of a well-formed key, or null (then no lookup is made). */
export function prefixOf(key: string): string | null {
  return KEY_SHAPE.exec(key)?.[1] ?? null;
}
