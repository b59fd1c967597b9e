/**
 * Emit point of the organisation webhooks (issue 12): called inside the transaction that made the change, so an
 * event is queued exactly when the change commits. Stub: the webhooks module replaces this body with the
 * durable delivery queue; the signature stays.
 * @param tx the open transaction of the change
 * @param organisationId whose subscribers hear it
 * @param type `ticket.issued`, `ticket.revoked`, ...
 * @param data the event's payload (JSON)
 */
import type { DbOrTx } from '../../db/client.js';

export function enqueueWebhookEvent(
  tx: DbOrTx,
  organisationId: number,
  type: string,
  data: Record<string, unknown>,
): Promise<void> {
  void [tx, organisationId, type, data];
  return Promise.resolve();
}
