import { describe, expect, it } from 'vitest';
import {
  AVATAR_ACCEPT,
  holderDisplayName,
  fullName,
  nicknameOf,
  normalizePhone,
  parseUsername,
  PHONE_MAX_LENGTH,
  PHONE_PATTERN,
  usernameOf,
} from './profile.js';

const person = { givenName: 'Alice', familyName: 'Nguyen', nickname: 'alice', usernameSuffix: 7315 };

describe('display names', () => {
  it('names a person by their full name, else by their username nickname#suffix', () => {
    expect(holderDisplayName(person)).toBe('Alice Nguyen');
    expect(holderDisplayName({ ...person, familyName: null })).toBe('Alice');
    expect(holderDisplayName({ ...person, givenName: '  ', familyName: ' Nguyen ' })).toBe('Nguyen');
    expect(holderDisplayName({ ...person, givenName: null, familyName: '' })).toBe('alice#7315');
    expect(fullName({ givenName: null, familyName: null })).toBeNull();
    expect(usernameOf(person)).toBe('alice#7315');
  });
  it('parses and splits usernames', () => {
    expect(parseUsername(' bob#7315 ')).toEqual({ nickname: 'bob', suffix: 7315 });
    expect(parseUsername('a#b#12')).toEqual({ nickname: 'a#b', suffix: 12 });
    expect(parseUsername('bob')).toBeNull();
    expect(parseUsername('#12')).toBeNull();
    expect(parseUsername('bob#1234567890')).toBeNull();
    expect(nicknameOf('bob#7315')).toBe('bob');
    expect(nicknameOf('bob')).toBe('bob');
    expect(nicknameOf('#7315')).toBe('#7315');
  });
});

describe('phone numbers', () => {
  it('stores a leading + and the digits only', () => {
    expect(normalizePhone(' +61 (400) 000-001 ')).toBe('+61400000001');
    expect(normalizePhone('0400 000 001')).toBe('0400000001');
    expect(normalizePhone('+61400000001')).toBe(normalizePhone('+61 400 000 001'));
  });
  it('accepts digits, spaces, ( ) - and a leading + up to 32 characters', () => {
    expect(PHONE_PATTERN.test('+61 (400) 000-001')).toBe(true);
    expect(PHONE_PATTERN.test('61+400')).toBe(false);
    expect(PHONE_PATTERN.test('call me')).toBe(false);
    expect(PHONE_PATTERN.test('(-)')).toBe(false);
    expect(PHONE_PATTERN.test('+1 2')).toBe(false);
    expect(PHONE_MAX_LENGTH).toBe(32);
  });
});

describe('avatar formats', () => {
  it('accepts HEIC, WEBP, SVG, PNG and JPG by extension and MIME type (spec section 5)', () => {
    expect(AVATAR_ACCEPT).toBe(
      '.heic,.heif,.webp,.svg,.png,.jpg,.jpeg,image/heic,image/heif,image/webp,image/svg+xml,image/png,image/jpeg',
    );
  });
});
