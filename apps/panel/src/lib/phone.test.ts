import { describe, expect, it } from 'vitest';
import { loadPhoneFormatter } from './phone';

describe('phone numbers shown formatted (libphonenumber-js, min metadata)', () => {
  it('formats a stored number with a country code internationally', async () => {
    const format = await loadPhoneFormatter();
    expect(format('+61412345678')).toBe('+61 412 345 678');
    expect(format('+34612345678')).toBe('+34 612 34 56 78');
    expect(format('+14155552671')).toBe('+1 415 555 2671');
  });

  it('shows a number it cannot place as stored', async () => {
    const format = await loadPhoneFormatter();
    expect(format('0412345678')).toBe('0412345678');
    expect(format('+999123')).toBe('+999123');
  });
});
