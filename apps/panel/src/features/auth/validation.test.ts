import type { StandardSchemaV1 } from '@standard-schema/spec';
import { describe, expect, it } from 'vitest';
import { emailSchema, otpSchema, personalDataSchema } from './validation';

/** The first problem's message key, or null when the form is valid. */
function issue<T>(schema: StandardSchemaV1<T>, input: unknown): string | null {
  const result = schema['~standard'].validate(input);
  if (result instanceof Promise) throw new Error('sign-in rules are synchronous');
  return result.issues?.[0]?.message ?? null;
}

describe('validation (spec section 5)', () => {
  it('e-mail: required, then valid', () => {
    expect(issue(emailSchema, { email: '' })).toBe('validation.email_required');
    expect(issue(emailSchema, { email: 'nope' })).toBe('validation.email_invalid');
    expect(issue(emailSchema, { email: ' ana@example.com ' })).toBeNull();
  });
  it('OTP: required, exactly 6 digits', () => {
    expect(issue(otpSchema, { otp: '' })).toBe('validation.otp_required');
    expect(issue(otpSchema, { otp: '12345' })).toBe('validation.otp_length');
    expect(issue(otpSchema, { otp: '1234567' })).toBe('validation.otp_length');
    expect(issue(otpSchema, { otp: '12a456' })).toBe('validation.otp_length');
    expect(issue(otpSchema, { otp: '123456' })).toBeNull();
  });
  it('names: trimmed and required', () => {
    expect(issue(personalDataSchema, { givenName: '  ', familyName: 'X' })).toBe('validation.first_name_required');
    expect(issue(personalDataSchema, { givenName: 'A', familyName: ' ' })).toBe('validation.last_name_required');
    expect(issue(personalDataSchema, { givenName: 'A', familyName: 'B' })).toBeNull();
  });
});
