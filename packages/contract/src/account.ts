/**
 * Account rights (issue 13, item 6; beyond the spec, see docs/decisions/001): export my data, sign out
 * of other devices, delete my account, and the seller's earnings on the payout tab.
 */
import * as z from 'zod';
import { passkey, user } from './auth.js';
import { myTicket } from './tickets.js';
import { listingWithTotals } from './resell.js';

/** One sign-in (device) of the holder; times ISO 8601 UTC. */
export const accountSession = z.object({
  id: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  /** The sign-in that made the export request. */
  current: z.boolean(),
});

/** A resale purchase made with the holder's e-mail or redeemed by the holder; amounts in minor units. */
export const accountOrder = z.object({
  orderId: z.string(),
  eventName: z.string(),
  ticketName: z.string(),
  quantity: z.number().int(),
  totalCents: z.number().int(),
  currencyCode: z.string(),
  status: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  redeemedAt: z.string().nullable(),
});

/** Payout status of one sale: PENDING until paid out to the seller's account, then PAID. */
export const payoutStatus = z.enum(['PENDING', 'PAID']);

/** GET /resell/earnings: one sale of the seller's listings; `amountCents` is what the seller is owed (price, no fee). */
export const earning = z.object({
  orderId: z.string(),
  name: z.string(),
  ticketLogo: z.string().nullable(),
  quantity: z.number().int(),
  amountCents: z.number().int(),
  currencyCode: z.string(),
  currencySymbol: z.string(),
  soldDate: z.string(),
  payoutStatus: payoutStatus,
});
export type Earning = z.infer<typeof earning>;
export const earningsResponse = z.array(earning);

/** GET /auth/export: everything the service holds about the signed-in holder. */
export const accountExport = z.object({
  exportedAt: z.string(),
  profile: user,
  tickets: z.array(myTicket),
  listings: z.array(listingWithTotals),
  orders: z.array(accountOrder),
  earnings: z.array(earning),
  sessions: z.array(accountSession),
  /** The account's passkeys (issue 47): their names and times, never a key. */
  passkeys: z.array(passkey),
});
export type AccountExport = z.infer<typeof accountExport>;

/** POST /auth/logout-others: how many other sign-ins were ended. */
export const logoutOthersResponse = z.object({ revoked: z.number().int() });
