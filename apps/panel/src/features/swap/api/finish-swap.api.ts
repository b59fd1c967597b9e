/**
 * The end of a swap after its checkout (spec section 7):
 * - POST /v1/ticket_swap/confirm_swap/{swapIdentifier} -> {swapType, quantity}: changes the ticket type.
 *   Errors (ApiError message keys): api.swap.already_confirmed (409, the sandbox checkout confirmed it),
 *   api.swap.payment_required (402, an upgrade not paid), api.swap.expired (409, cancelled or past its
 *   hold), api.swap.not_found (404), api.swap.out_of_stock / api.swap.not_swappable (409).
 * - POST /v1/ticket_swap/cancel_swap/{swapIdentifier} -> 204: releases the held target stock at once.
 * `swapIdentifier` is start_swap's `orderIdentifier`.
 */
import { client } from '../../../lib/api-client';

export const confirmSwap = (swapIdentifier: string): Promise<{ swapType: string; quantity: number }> =>
  client.POST('/v1/ticket_swap/confirm_swap/{swapIdentifier}', { params: { path: { swapIdentifier } } });

export const cancelSwap = (swapIdentifier: string): Promise<void> =>
  client.POST('/v1/ticket_swap/cancel_swap/{swapIdentifier}', { params: { path: { swapIdentifier } } });
