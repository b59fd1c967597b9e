import { describe, expect, it } from 'vitest';
import { isAdultOn, payoutFormSchema } from './payout-form.validation';

const today = new Date('2026-06-15T10:00:00Z');
const ok = {
  country: 'AU',
  firstName: 'Bob',
  lastName: 'Taylor',
  birthdate: '1990-02-03',
  bankAccount: '062-000 12345678',
};
const issues = (v: Record<string, string>) => {
  const r = payoutFormSchema(() => today).safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}:${i.message}`);
};

describe('payout form', () => {
  it('accepts a complete AU or NZ form', () => {
    expect(issues(ok)).toEqual([]);
    expect(issues({ ...ok, country: 'NZ', bankAccount: '12-3456-7890123-00' })).toEqual([]);
  });
  it('only Australia and New Zealand', () => {
    expect(issues({ ...ok, country: 'US' })).toEqual(['country:api.resell.not_supported_country']);
  });
  it('names required', () => {
    expect(issues({ ...ok, firstName: '  ', lastName: '' })).toEqual([
      'firstName:validation.first_name_required',
      'lastName:validation.last_name_required',
    ]);
  });
  it('date of birth: required, a real date, 18 or older', () => {
    expect(issues({ ...ok, birthdate: '' })).toEqual(['birthdate:payout.birthdate_required']);
    expect(issues({ ...ok, birthdate: '2008-06-16' })).toEqual(['birthdate:payout.birthdate_adult']);
    expect(issues({ ...ok, birthdate: '2008-06-15' })).toEqual([]);
    expect(isAdultOn('1990-02-30', today)).toBe(false);
  });
  it('bank account: digits, spaces and dashes, at least 6 digits', () => {
    expect(issues({ ...ok, bankAccount: '' })).toEqual(['bankAccount:payout.bank_required']);
    expect(issues({ ...ok, bankAccount: '12-34' })).toEqual(['bankAccount:payout.bank_invalid']);
    expect(issues({ ...ok, bankAccount: 'GB12 3456' })).toEqual(['bankAccount:payout.bank_invalid']);
    expect(issues({ ...ok, bankAccount: '1- - - -2' })).toEqual(['bankAccount:payout.bank_invalid']);
  });
});
