/**
 * A sale undone because its event was cancelled (issue 46, decision 045 "The ticket back to its seller"): when the
 * payment of a resale order or an exchange offer for a cancelled event goes back to its buyer before the seller was
 * paid (the cancel's own refund job, or a refund Stripe reports), the tickets it bought go back to whoever sold them,
 * who is then the current holder the organiser refunds. Without this the buyer would be refunded twice (the payment,
 * then the organiser's refund of the ticket) and the seller not at all.
 *
 * Per ticket the payment bought:
 * - still the buyer's (or nobody's: a resale code not redeemed yet) and it admitted before the cancel: back to the
 *   seller (history `SALE_REFUNDED`); a unit the organisation released (no seller) is void (`refunded`);
 * - moved on since (gifted, sold again) or void already (the organiser's revoke, a dispute): left as it is; its current
 *   holder is the one the organiser refunds (decision 045).
 * A refund request a buyer had pending for one of them is closed (`withdrawn`). The buyers who held them are e-mailed that their payment was refunded (`ticketRevoked`, reason `sale_refunded`), and
 * a resale buyer whose code was not redeemed once, at the order's e-mail, that it was and the code no longer works
 * (`sale_refunded_code`); the
 * sellers get the event's cancellation e-mail with the organiser's words, unless the cancel run has still to reach
 * their ticket (it then tells them, as its current holders): the run's cursor is read with the event's row locked, so
 * each seller is told once. The organisation's webhook gets `ticket.refunded` (`returnedToSeller`), and the wallet
 * passes of every ticket moved are updated.
 */
import type { DbOrTx } from '../../db/client.js';
import { holderMail } from '../../providers/mail/brand.js';
import { enqueueMails } from '../../providers/mail/mail-jobs.js';
import { ticketHoldersRepository } from '../../providers/mail/ticket-holders.repository.js';
import { enqueueTicketMovedJobs } from '../../providers/jobs/ticket-moved-jobs.js';
import { enqueueTicketEvents } from '../outbound-webhooks/outbound-events.js';
import { paymentReversalRepository, type PaidPayment } from './payment-reversal.repository.js';
import { saleUndoRepository as repo, type SoldTicket } from './sale-undo.repository.js';

/** The `ticketRevoked` e-mails telling `rows`' people that their payment was refunded, for `reason`. */
const refundNotices = (
  rows: Parameters<typeof holderMail>[0][],
  publicUrl: string,
  reason: 'sale_refunded' | 'sale_refunded_code',
) =>
  rows.map((h) => {
    const { ticket, link, ...mail } = holderMail(h, publicUrl, 'MY_TICKET');
    return { template: 'ticketRevoked' as const, ...mail, params: { ticket, link, reason } };
  });

/** A ticket the undo may take from its buyer: not void, and the buyer's still (or nobody's yet). */
const stillBought = (t: SoldTicket) => t.revokedAt === null && (t.holderId === null || t.holderId === t.buyerId);

/**
 * In `tx` (the transaction that records the refund of `p`), undoes the sale when the payment's event is cancelled
 * (see the module's comment). The caller has checked that the seller was not paid yet.
 * @param publicUrl the panel's public URL (the mails' links).
 * @returns null when the event is not cancelled (the caller voids the tickets, decision 044); else the sale was undone
 *   as far as it could be, and `voidAlready` names the tickets of the payment that were void already (a dispute's
 *   `disputed` the caller makes `refunded`).
 */
export async function undoCancelledSale(
  tx: DbOrTx,
  p: PaidPayment,
  at: Date,
  publicUrl: string,
): Promise<{ voidAlready: number[] } | null> {
  const sold = await repo.soldTickets(tx, p);
  if (!sold.length) return null;
  const run = await repo.lockCancelRun(tx, sold[0].eventId);
  if (!run) return null;
  const undone = sold.filter(stillBought);
  const back = undone.filter((t) => t.sellerId !== null);
  const released = undone.filter((t) => t.sellerId === null).map((t) => t.id);
  // Told before the move: the holders query reads who holds the tickets now.
  const buyers = await ticketHoldersRepository.ofTickets(
    tx,
    undone.map((t) => t.id),
  );
  // A resale code not redeemed: nobody holds its tickets; its buyer is the order's e-mail, told once.
  const unredeemed = p.kind === 'resale' ? undone.find((t) => t.holderId === null && t.sellerId !== null) : undefined;
  const orderBuyer = unredeemed && (await repo.orderBuyer(tx, p.orderId));
  await repo.giveBack(
    tx,
    back.map((t) => ({ id: t.id, from: t.holderId, to: t.sellerId as number })),
    at,
  );
  await paymentReversalRepository.voidTickets(tx, released, 'refunded', at);
  // A refund request their buyer made is moot: that buyer's payment went back, and the ticket left them.
  await repo.withdrawPendingRefunds(
    tx,
    undone.map((t) => t.id),
    at,
  );
  // The code's ticket as a ticket e-mail reads it (now its seller's again), addressed to the order's buyer.
  const [codeTicket] = orderBuyer ? await ticketHoldersRepository.ofTickets(tx, [unredeemed.id]) : [];
  const codeBuyer = codeTicket && { ...codeTicket, ...orderBuyer };
  const toldByRun = (t: SoldTicket) => run.cursor !== null && t.id > run.cursor;
  const sellers = await ticketHoldersRepository.ofTickets(
    tx,
    back.filter((t) => !toldByRun(t)).map((t) => t.id),
  );
  // A sequence above the run's (decision 045), so a calendar that has the event drops it.
  const sequence = Math.floor(at.getTime() / 1000) + 1;
  await enqueueMails(tx, at, [
    ...refundNotices(buyers, publicUrl, 'sale_refunded'),
    ...refundNotices(codeBuyer ? [codeBuyer] : [], publicUrl, 'sale_refunded_code'),
    ...sellers.map((h) => {
      const { ticket, link, ...mail } = holderMail(h, publicUrl, 'MY_TICKET');
      const reason = h.event.cancelReason;
      return { template: 'eventCancelled' as const, ...mail, params: { ticket, link, at, sequence, reason } };
    }),
  ]);
  const refunded = { orderId: p.orderId, dispute: false };
  await enqueueTicketEvents(
    tx,
    'ticket.refunded',
    back.map((t) => t.id),
    at,
    { ...refunded, returnedToSeller: true },
  );
  await enqueueTicketEvents(tx, 'ticket.refunded', released, at, refunded);
  await enqueueTicketMovedJobs(
    tx,
    undone.map((t) => t.id),
  );
  return { voidAlready: sold.filter((t) => t.revokedAt !== null).map((t) => t.id) };
}
