/**
 * Planning an issue of tickets (ticket-issuing.ts): what each row would do, decided without writing, and whether a
 * write prepared from an unlocked plan still fits the same rows checked again under locks.
 */
import type { DbOrTx } from '../../../db/client.js';
import { orgApiRepository as repo } from '../org-api.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import { endpointsUnchanged } from '../../outbound-webhooks/outbound-events.js';
import type { PlannedRow, TicketInput } from './ticket-issuing.js';
import type { PreparedWrite } from './issuing-write.js';

/**
 * Decides, row by row, what issuing would do (no writes). Rows are locked when `lock` (not for a dry run): the types'
 * events `FOR SHARE` (so a cancel waits for the issue, or the issue sees the cancel), then the tickets. Errors name
 * the field they are about; a row of a cancelled event's type is `api.org.event_cancelled` (issue 46).
 */
export async function planTickets(
  tx: DbOrTx,
  org: RequestOrganisation,
  rows: TicketInput[],
  lock: boolean,
): Promise<PlannedRow[]> {
  const types = new Map(
    (await repo.ticketTypesByExternalIds(tx, org.id, [...new Set(rows.map((r) => r.ticketTypeExternalId))])).map(
      (t) => [t.externalId, t] as const,
    ),
  );
  // The events first, then the tickets: a cancel takes its event's row before its tickets' (no deadlock).
  const cancelled = await repo.cancelledEventIds(tx, [...new Set([...types.values()].map((t) => t.eventId))], lock);
  const existing = new Map(
    (
      await repo.ticketsByExternalIds(
        tx,
        org.id,
        rows.map((r) => r.externalId),
        lock,
      )
    ).map((t) => [t.externalId, t] as const),
  );
  const seen = new Set<string>();
  return rows.map((input): PlannedRow => {
    if (seen.has(input.externalId))
      return { kind: 'error', input, message: 'api.org.import.duplicate_external_id', field: 'externalId' };
    seen.add(input.externalId);
    const type = types.get(input.ticketTypeExternalId);
    if (!type) return { kind: 'error', input, message: 'api.org.ticket_type_not_found', field: 'ticketTypeExternalId' };
    // A cancelled event takes no ticket, new or re-issued, nor a repeat of one (issue 46).
    if (cancelled.has(type.eventId))
      return { kind: 'error', input, message: 'api.org.event_cancelled', field: 'ticketTypeExternalId' };
    const ticket = existing.get(input.externalId);
    if (!ticket) return { kind: 'create', input, type };
    if (ticket.revokedAt) return { kind: 'error', input, message: 'api.org.ticket_revoked' };
    if (ticket.ticketTypeId !== type.id)
      return { kind: 'error', input, message: 'api.org.ticket_type_locked', field: 'ticketTypeExternalId' };
    if (ticket.issuedToEmail === input.holderEmail) return { kind: 'unchanged', input };
    if (ticket.listed || ticket.holderId === null)
      return { kind: 'error', input, message: 'api.org.ticket_in_resale', field: 'holderEmail' };
    if (ticket.eventAccessUsedAt) return { kind: 'error', input, message: 'api.org.ticket_used', field: 'holderEmail' };
    if (ticket.holderId !== ticket.issuedToId)
      return { kind: 'error', input, message: 'api.org.ticket_moved', field: 'holderEmail' };
    return { kind: 'reissue', input, type, ticket };
  });
}

/**
 * Whether a write prepared from `before` (checked without locks) still fits `locked` (the same rows checked
 * again under row locks) and the organisation's webhook endpoints: then it may be written as made.
 */
export async function stillFits(tx: DbOrTx, before: PlannedRow[], locked: PlannedRow[], w: PreparedWrite) {
  const same = (a: PlannedRow, b: PlannedRow) =>
    a.kind === b.kind &&
    (a.kind !== 'reissue' ||
      (b.kind === 'reissue' && a.ticket.id === b.ticket.id && a.ticket.holderId === b.ticket.holderId));
  return (
    before.length === locked.length &&
    before.every((p, i) => same(p, locked[i])) &&
    (await endpointsUnchanged(tx, w.orgId, w.deliveries))
  );
}
