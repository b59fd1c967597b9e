/**
 * POST /v1/ticket_swap/start_swap {baseTicketId, swapPairId, swapQuantity} (spec section 7) ->
 * {swapType: 'UPGRADE' | 'DOWNGRADE', orderIdentifier, name (the event's name)}. The server reserves the
 * target stock for a limited time. Errors: ApiError (the screen shows api.start_swap_failed, spec section 8).
 */
import { useMutation } from '@tanstack/react-query';
import type { swap } from '@tp/contract';
import { client } from '../../../lib/api-client';

export interface StartSwapInput {
  baseTicketId: number;
  swapPairId: number;
  swapQuantity: number;
}
export type StartSwapResult = swap.StartSwapResponse;

export const startSwap = (input: StartSwapInput): Promise<StartSwapResult> =>
  client.POST('/v1/ticket_swap/start_swap', { body: input });

export const useStartSwap = () => useMutation({ mutationFn: startSwap });
