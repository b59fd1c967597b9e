import { describe, expect, it } from 'vitest';
import { clampQuantity, listingAgeDays, parsePrice, resellFormSchema, shareLinks } from './resell.rules';

const errorOf = (price: string, max = 86.9, qty = 1, available = 2) => {
  const r = resellFormSchema(max, available).safeParse({ price, quantity: qty });
  return r.success ? null : r.error.issues.map((i) => i.message);
};

describe('resell rules', () => {
  it('price: required, positive, two decimals at most, at most the cap plus 0.001', () => {
    expect(errorOf('')).toEqual(['resell.price_required']);
    expect(errorOf('  ')).toEqual(['resell.price_required']);
    expect(errorOf('0')).toEqual(['resell.price_required']);
    expect(errorOf('abc')).toEqual(['invalid_prices']);
    expect(errorOf('1.234')).toEqual(['invalid_prices']);
    expect(errorOf('-5')).toEqual(['invalid_prices']);
    expect(errorOf('86.90')).toBeNull();
    expect(errorOf('86,9')).toBeNull();
    expect(errorOf('86.91')).toEqual(['invalid_prices']);
    expect(errorOf('12.5')).toBeNull();
  });
  it('quantity: integer in 1..available', () => {
    expect(errorOf('10', 86.9, 0)).not.toBeNull();
    expect(errorOf('10', 86.9, 3, 2)).not.toBeNull();
    expect(errorOf('10', 86.9, 2, 2)).toBeNull();
    expect(clampQuantity(0, 3)).toBe(1);
    expect(clampQuantity(7, 3)).toBe(3);
    expect(clampQuantity(2.7, 3)).toBe(2);
    expect(clampQuantity(Number.NaN, 3)).toBe(1);
  });
  it('parses prices with a dot or comma', () => {
    expect(parsePrice('12,50')).toBe(12.5);
    expect(parsePrice('1e3')).toBeNull();
  });
  it('listing age in whole days', () => {
    const now = new Date('2026-03-10T12:00:00Z');
    expect(listingAgeDays('2026-03-10T01:00:00Z', now)).toBe(0);
    expect(listingAgeDays('2026-03-09T12:00:01Z', now)).toBe(0);
    expect(listingAgeDays('2026-03-09T12:00:00Z', now)).toBe(1);
    expect(listingAgeDays('2026-03-01T11:00:00Z', now)).toBe(9);
  });
  it('share links carry the link and the title; Twitter the via handle', () => {
    const l = shareLinks('https://x.test/r/abc', 'River Nights · GA', 'ticketpanel');
    expect(l.facebook).toBe(
      'https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fx.test%2Fr%2Fabc&quote=River%20Nights%20%C2%B7%20GA',
    );
    expect(l.twitter).toContain('url=https%3A%2F%2Fx.test%2Fr%2Fabc');
    expect(l.twitter).toContain('&via=ticketpanel');
    expect(l.twitter).toContain('text=River%20Nights');
    expect(l.mail).toBe(
      'mailto:?subject=River%20Nights%20%C2%B7%20GA&body=River%20Nights%20%C2%B7%20GA%0Ahttps%3A%2F%2Fx.test%2Fr%2Fabc',
    );
  });
});
