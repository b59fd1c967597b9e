import { describe, expect, it } from 'vitest';
import { normalizePhone } from '@tp/contract/profile';
import { avatarFileError, nameSchema, nicknameSchema, phoneSchema } from './account-validation';

const msg = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error!.issues[0].message;

describe('settings account validation (spec section 5)', () => {
  it('nickname: trimmed, not blank, no # or spaces', () => {
    expect(msg(nicknameSchema.safeParse({ nickname: '   ' }))).toBe('validation.username_empty');
    expect(msg(nicknameSchema.safeParse({ nickname: 'a#1' }))).toBe('account.nickname_invalid');
    expect(msg(nicknameSchema.safeParse({ nickname: 'two words' }))).toBe('account.nickname_invalid');
    expect(msg(nicknameSchema.safeParse({ nickname: 'x'.repeat(31) }))).toBe('account.nickname_too_long');
    expect(nicknameSchema.parse({ nickname: '  maya ' })).toEqual({ nickname: 'maya' });
  });
  it('names: required, then "cannot be empty" when blank', () => {
    expect(msg(nameSchema.safeParse({ givenName: '', familyName: 'X' }))).toBe('validation.first_name_required');
    expect(msg(nameSchema.safeParse({ givenName: '  ', familyName: 'X' }))).toBe('validation.first_name_empty');
    expect(msg(nameSchema.safeParse({ givenName: 'A', familyName: ' ' }))).toBe('validation.last_name_empty');
    expect(nameSchema.safeParse({ givenName: 'Ana', familyName: 'López' }).success).toBe(true);
  });
  it('phone: required and digits', () => {
    expect(msg(phoneSchema.safeParse({ phoneNumber: ' ' }))).toBe('validation.phone_required');
    expect(msg(phoneSchema.safeParse({ phoneNumber: 'call me' }))).toBe('account.phone_invalid');
    expect(msg(phoneSchema.safeParse({ phoneNumber: '+1' }))).toBe('account.phone_invalid');
    expect(phoneSchema.safeParse({ phoneNumber: '+61 (400) 000-001' }).success).toBe(true);
    expect(normalizePhone(' +61 (400) 000-001 ')).toBe('+61400000001');
    expect(normalizePhone('0400 000 001')).toBe('0400000001');
  });
  it('avatar: the five formats, 10 MB at most', () => {
    expect(avatarFileError({ name: 'me.png', type: 'image/png', size: 1000 })).toBeNull();
    expect(avatarFileError({ name: 'IMG_1.HEIC', type: '', size: 1000 })).toBeNull();
    expect(avatarFileError({ name: 'a.svg', type: 'image/svg+xml', size: 1000 })).toBeNull();
    expect(avatarFileError({ name: 'a.gif', type: 'image/gif', size: 1000 })).toBe('api.profile.avatar_invalid');
    expect(avatarFileError({ name: 'a.jpg', type: 'image/jpeg', size: 11 * 1024 * 1024 })).toBe(
      'api.profile.avatar_too_large',
    );
  });
});
