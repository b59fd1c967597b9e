/** POST /v1/resell/redeem/{secret} (spec sections 2 Redeem, 4 Redeem): moves the tickets held under a code to the user. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type * as z from 'zod';
import type { resell } from '@tp/contract';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** What was redeemed: a display name ("Event · Type") and a logo path (or null). */
export type RedeemResult = z.infer<typeof resell.redeemResponse>;

/**
 * Redeems `secret` (sent path-encoded; spaces and dashes are ignored by the server).
 * @throws ApiError `api.resell.redeem.invalid_code` (404), `api.resell.redeem.already_redeemed` (409), `api.too_many_requests` (429).
 */
export const redeemCode = (secret: string): Promise<RedeemResult> =>
  client.POST('/v1/resell/redeem/{secret}', { params: { path: { secret } } });

/** The mutation; on success the user's tickets (cache tag TICKETS) are refreshed. */
export function useRedeem() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: redeemCode,
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.tickets.all }),
  });
}
