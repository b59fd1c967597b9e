/**
 * Rules of the sandbox payout onboarding form (spec sections 5 and 9: payouts only in Australia and New
 * Zealand). Messages are catalogue keys, shown only when a field is touched and in error.
 */
import * as z from 'zod';
import { NAME_MAX_LENGTH } from '@tp/contract/profile';

/** Countries where resale and payouts are offered. */
export const PAYOUT_COUNTRIES = ['AU', 'NZ'] as const;
/** Minimum age to hold a payout account. */
export const PAYOUT_MIN_AGE = 18;

/** True when `iso` (YYYY-MM-DD) is a real date at least `years` before `today`. */
export function isAdultOn(iso: string, today: Date, years = PAYOUT_MIN_AGE): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d || y < 1900) return false;
  const limit = Date.UTC(today.getUTCFullYear() - years, today.getUTCMonth(), today.getUTCDate());
  return date.getTime() <= limit;
}

export function payoutFormSchema(today: () => Date = () => new Date()) {
  return z.object({
    country: z.enum(PAYOUT_COUNTRIES, { message: 'api.resell.not_supported_country' }),
    firstName: z.string().trim().min(1, 'validation.first_name_required').max(NAME_MAX_LENGTH),
    lastName: z.string().trim().min(1, 'validation.last_name_required').max(NAME_MAX_LENGTH),
    birthdate: z.string().superRefine((v, ctx) => {
      if (v.trim() === '') ctx.addIssue({ code: 'custom', message: 'payout.birthdate_required' });
      else if (!isAdultOn(v.trim(), today())) ctx.addIssue({ code: 'custom', message: 'payout.birthdate_adult' });
    }),
    bankAccount: z.string().superRefine((v, ctx) => {
      const s = v.trim();
      if (s === '') ctx.addIssue({ code: 'custom', message: 'payout.bank_required' });
      else if (!/^[0-9][0-9 -]{4,32}[0-9]$/.test(s) || s.replace(/\D/g, '').length < 6)
        ctx.addIssue({ code: 'custom', message: 'payout.bank_invalid' });
    }),
  });
}
export type PayoutForm = z.infer<ReturnType<typeof payoutFormSchema>>;
