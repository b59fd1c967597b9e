/** The forms' one rule for a field's error (ui/field `touchedError`): shown only once touched, its key translated. */
import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { touchedError } from './field';

const t = ((key: string) => `«${key}»`) as unknown as TFunction;
type Form = { email: string; code: string };
const state = (touched: Partial<Record<keyof Form, boolean>>, message?: string) => ({
  errors: { email: { type: 'x', message } },
  touchedFields: touched,
});

describe('touchedError', () => {
  it('says nothing while the field is untouched, or has no error', () => {
    expect(touchedError<Form>(t, state({}, 'validation.email_invalid'), 'email')).toBeUndefined();
    expect(touchedError<Form>(t, state({ code: true }), 'code')).toBeUndefined();
  });
  it("translates the error's key once touched, else the fallback key", () => {
    expect(touchedError<Form>(t, state({ email: true }, 'validation.email_invalid'), 'email')).toBe(
      '«validation.email_invalid»',
    );
    expect(touchedError<Form>(t, state({ email: true }), 'email', 'validation.email_required')).toBe(
      '«validation.email_required»',
    );
    expect(touchedError<Form>(t, state({ email: true }), 'email')).toBeUndefined();
  });
});
