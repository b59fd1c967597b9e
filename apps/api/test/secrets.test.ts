/**
 * lib/secrets.ts, the API's one way to hash and compare secrets (issue 43): what each compare answers for equal,
 * different, empty and malformed values. No database.
 */
import { describe, expect, it } from 'vitest';
import { sameBytes, sameHash, sameSecret, sha256Hex } from '../src/lib/secrets.js';

describe('secrets', () => {
  it('sha256Hex is the lower-case hex SHA-256 of the UTF-8 string', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('ñ')).toBe(sha256Hex('\u00f1'));
  });

  it('sameHash: equal hashes match, any other value does not (another hash, empty, not hex, none stored)', () => {
    const hash = sha256Hex('ABCD-EFGH');
    expect(sameHash(hash, sha256Hex('ABCD-EFGH'))).toBe(true);
    expect(sameHash(hash, sha256Hex('ABCD-EFGJ'))).toBe(false);
    expect(sameHash(hash.slice(0, -2), hash)).toBe(false);
    expect(sameHash('', '')).toBe(false);
    expect(sameHash('', hash)).toBe(false);
    expect(sameHash('zz', 'zz')).toBe(false);
    expect(sameHash(null, hash)).toBe(false);
  });

  it('sameBytes: false for empty or differently long values, without throwing', () => {
    expect(sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 3]))).toBe(false);
    expect(sameBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false);
    expect(sameBytes(new Uint8Array(), new Uint8Array())).toBe(false);
  });

  it('sameSecret: the presented secret must equal the expected one, of any length; an empty one never matches', () => {
    expect(sameSecret('s3cret', 's3cret')).toBe(true);
    expect(sameSecret('s3cret', 's3cret!')).toBe(false);
    expect(sameSecret('', '')).toBe(false);
  });
});
