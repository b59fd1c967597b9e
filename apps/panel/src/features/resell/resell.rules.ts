/**
 * Resale form rules of spec section 5 and the pure helpers the resell screen uses. Messages are
 * catalogue keys shown only when a field is touched and in error.
 */
import * as z from 'zod';
import { RESALE_PRICE_TOLERANCE } from '@tp/contract/constants';

/** A price as typed ("12", "12.5", "12,50"): its value in major units, or null when it is not a price. */
export function parsePrice(raw: string): number | null {
  const v = raw.trim().replace(',', '.');
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(v)) return null;
  return Number(v);
}

/** Quantity clamped to 1..max (spec section 5); anything not a number becomes 1. */
export function clampQuantity(n: number, max: number): number {
  const whole = Number.isFinite(n) ? Math.trunc(n) : 1;
  return Math.min(Math.max(1, max), Math.max(1, whole));
}

/**
 * The resale form for an entry whose cap is `maxTicketPrice` (major units) and that holds `available` tickets:
 * price required ('resell.price_required', also for 0, the form's initial value), a price with at most two decimals
 * ('invalid_prices') and at most the cap plus RESALE_PRICE_TOLERANCE (else 'invalid_prices', the spec's "Invalid
 * price": section 5, rows E9 and I14; issue 40 point 10; the field's helper names the cap); quantity an integer in
 * 1..available.
 */
export function resellFormSchema(maxTicketPrice: number, available: number) {
  return z.object({
    price: z.string().superRefine((raw, ctx) => {
      if (raw.trim() === '') {
        ctx.addIssue({ code: 'custom', message: 'resell.price_required' });
        return;
      }
      const value = parsePrice(raw);
      if (value === null) {
        ctx.addIssue({ code: 'custom', message: 'invalid_prices' });
        return;
      }
      if (value <= 0) {
        ctx.addIssue({ code: 'custom', message: 'resell.price_required' });
        return;
      }
      if (value > maxTicketPrice + RESALE_PRICE_TOLERANCE) ctx.addIssue({ code: 'custom', message: 'invalid_prices' });
    }),
    quantity: z.number().int().min(1).max(Math.max(1, available)),
  });
}
export type ResellForm = z.infer<ReturnType<typeof resellFormSchema>>;

/** Whole days a listing has been listed (0 on the day it was listed). */
export function listingAgeDays(listedIso: string, now: Date = new Date()): number {
  return Math.max(0, Math.floor((now.getTime() - new Date(listedIso).getTime()) / 86_400_000));
}

/** Share links of spec section 2 (Facebook, Twitter with the product's via handle, e-mail), each with link and title. */
export function shareLinks(url: string, title: string, twitterVia: string) {
  const u = encodeURIComponent(url);
  const tt = encodeURIComponent(title);
  return {
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}&quote=${tt}`,
    twitter: `https://twitter.com/intent/tweet?url=${u}&text=${tt}${twitterVia ? `&via=${encodeURIComponent(twitterVia.replace(/^@/, ''))}` : ''}`,
    mail: `mailto:?subject=${tt}&body=${encodeURIComponent(`${title}\n${url}`)}`,
  };
}

/** A fresh Idempotency-Key (random UUID; works outside secure contexts too). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}
