/** Starting a resale purchase from a share link (spec section 4 Resell flow): the PENDING order and its checkout. */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../lib/app-error.js';
import { pickLang } from '../../lib/lang.js';
import { resaleRepository as repo, type OrderRow } from './resale.repository.js';
import type { OrderDeps } from './order.service.js';

/** What a buyer asked for; an idempotency key is bound to it (amounts in minor units). */
interface PurchaseRequest {
  listingId: number;
  quantity: number;
  totalCents: number;
  currencyCode: string;
  buyerEmail: string;
}
const samePurchase = (order: OrderRow, r: PurchaseRequest): boolean =>
  order.listingId === r.listingId &&
  order.quantity === r.quantity &&
  order.totalCents === r.totalCents &&
  order.currencyCode === r.currencyCode &&
  order.buyerEmail.toLowerCase() === r.buyerEmail.toLowerCase();

/** The purchase part of the order service. */
export function createPurchase(deps: Pick<OrderDeps, 'database' | 'config' | 'payouts' | 'now'>) {
  const { config, payouts, now } = deps;
  const db = deps.database.db;
  return {
    /**
     * Starts a purchase from a share link: a PENDING order and the checkout URL.
     * The idempotency key (one per listing page shown) is bound to the request it was first used with:
     * listing, quantity, total, currency and buyer e-mail. The same request again answers the same
     * order (and checkout session); the key with any other parameters answers 422, as Stripe's API does.
     * @throws AppError `api.resell.listing_not_found` (404), `api.resell.listing_unavailable` (409, not enough left),
     *   `api.idempotency_key_reused` (422).
     */
    async startPurchase(
      token: string,
      input: { quantity: number; email: string; locale: string },
      idempotencyKey: string,
    ) {
      const row = await repo.listingByToken(db, token);
      if (!row) throw new AppError('api.resell.listing_not_found');
      const l = row.listing;
      const unit = l.priceCents + l.feeCents;
      const request: PurchaseRequest = {
        listingId: l.id,
        quantity: input.quantity,
        totalCents: unit * input.quantity,
        currencyCode: l.currencyCode,
        buyerEmail: input.email,
      };
      let order = await repo.orderByIdempotencyKey(db, idempotencyKey);
      if (order && !samePurchase(order, request)) throw new AppError('api.idempotency_key_reused');
      if (order && order.status !== 'PENDING')
        return { orderId: order.id, url: `${config.publicUrl}/resale/done/${order.id}` };
      if (l.status !== 'LISTED' || l.quantity - l.soldQuantity < input.quantity)
        throw new AppError('api.resell.listing_unavailable');
      if (!order) {
        order = await repo.insertOrder(db, {
          ...request,
          id: randomUUID(),
          locale: pickLang(input.locale),
          feeCents: l.feeCents * input.quantity,
          status: 'PENDING',
          idempotencyKey,
          createdAt: now(),
        });
        // A concurrent request with the same key but other parameters inserted first.
        if (!samePurchase(order, request)) throw new AppError('api.idempotency_key_reused');
      }
      const orderId = order.id;
      const checkout = await payouts.createCheckout({
        kind: 'resale',
        orderId,
        currencyCode: order.currencyCode,
        unitAmountCents: order.totalCents / order.quantity,
        quantity: order.quantity,
        productName: `${row.event.name} - ${row.type.name}`,
        buyerEmail: order.buyerEmail,
        successUrl: `${config.publicUrl}/resale/done/${orderId}?lang=${pickLang(input.locale)}`,
        cancelUrl: `${config.publicUrl}/r/${token}?lang=${pickLang(input.locale)}`,
      });
      await repo.setCheckoutSession(db, orderId, checkout.sessionId);
      return { orderId, url: checkout.url };
    },
  };
}
