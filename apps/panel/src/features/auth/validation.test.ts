import { describe, expect, it } from 'vitest';
import { emailSchema, otpSchema, personalDataSchema } from './validation';

const issue = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error!.issues[0].message;

describe('validation (spec section 5)', () => {
  it('e-mail: required, then valid', () => {
    expect(issue(emailSchema.safeParse({ email: '' }))).toBe('validation.email_required');
    expect(issue(emailSchema.safeParse({ email: 'nope' }))).toBe('validation.email_invalid');
    expect(issue(emailSchema.safeParse({ email: ' ana@example.com ' }))).toBeNull();
  });
  it('OTP: required, exactly 6 digits', () => {
    expect(issue(otpSchema.safeParse({ otp: '' }))).toBe('validation.otp_required');
    expect(issue(otpSchema.safeParse({ otp: '12345' }))).toBe('validation.otp_length');
    expect(issue(otpSchema.safeParse({ otp: '1234567' }))).toBe('validation.otp_length');
    expect(issue(otpSchema.safeParse({ otp: '12a456' }))).toBe('validation.otp_length');
    expect(issue(otpSchema.safeParse({ otp: '123456' }))).toBeNull();
  });
  it('names: trimmed and required', () => {
    expect(issue(personalDataSchema.safeParse({ givenName: '  ', familyName: 'X' }))).toBe(
      'validation.first_name_required',
    );
    expect(issue(personalDataSchema.safeParse({ givenName: 'A', familyName: ' ' }))).toBe(
      'validation.last_name_required',
    );
    expect(issue(personalDataSchema.safeParse({ givenName: 'A', familyName: 'B' }))).toBeNull();
  });
});
