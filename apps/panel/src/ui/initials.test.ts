import { describe, expect, it } from 'vitest';
import { initials } from './initials';

describe('avatar initials (spec section 2 Avatar)', () => {
  it('uses the first letters of given and family name', () => expect(initials('Ana', 'López')).toBe('AL'));
  it('uses two letters of the given name alone', () => expect(initials('ana', null)).toBe('AN'));
  it('uses two letters of the family name alone', () => expect(initials('  ', 'Ørsted')).toBe('ØR'));
  it('is empty when neither (not "AA": issue 40 point 11)', () => {
    expect(initials(null, undefined)).toBe('');
    expect(initials('', '')).toBe('');
  });
  it('handles one-letter names and skips symbols', () => {
    expect(initials('J', null)).toBe('J');
    expect(initials('-Zoë', null)).toBe('ZO');
  });
});
