/**
 * The offline door's admissions (GET /v1/access/events/{eventId}/admissions): pages of an event's holders with the
 * name the door shows and the tickets they hold, with the public keys that verify passes with no server.
 */
import { holderDisplayName, type access } from '@tp/contract';
import { accessRepository as repo } from './access.repository.js';
import { PLATFORM_SCOPE, type CheckInDeps, type DoorScope, type DoorScopes } from './door-scope.js';

/** The admissions part: `admissions`. */
export function createAdmissions(
  deps: Pick<CheckInDeps, 'database' | 'passKeys' | 'now'>,
  scopes: Pick<DoorScopes, 'eventInScope'>,
) {
  const { db } = deps.database;
  const { eventInScope } = scopes;
  return {
    /**
     * GET /access/events/:eventId/admissions: one page of the event's admissions for the offline door,
     * holders by user id above `after` (at most `limit`), each with the name the door shows and every
     * ticket they hold for the event (`usedAt` ISO UTC or null, `listed`, its type's `entryRules` and its recorded
     * `scans`, decision 050; the event's `timeZone` for the day of a scan) but those returned to the exchange queue
     * (decision 042: they do not admit); none at all once the event is cancelled (issue 46). No e-mail, no other field.
     * @throws AppError `api.access.event_not_found` (404), `api.access.not_for_this_event` (403).
     */
    async admissions(
      eventId: number,
      after: number,
      limit: number,
      scope: DoorScope = PLATFORM_SCOPE,
    ): Promise<access.AdmissionsPage> {
      const takenAt = deps.now();
      const keys = await deps.passKeys();
      const event = await eventInScope(eventId, scope);
      return db.transaction(async (tx) => {
        // A cancelled event admits no one (issue 46): a door that refreshes its list drops every holder.
        const page = event.cancelledAt
          ? { holders: [], tickets: [] }
          : await repo.admissionsPage(tx, eventId, after, limit);
        // Each ticket's rules and recorded scans (decision 050): the offline door judges with them.
        const scans = await repo.scansOf(
          tx,
          page.tickets.map((t) => t.userTicketId),
        );
        const byHolder = new Map<number, access.HeldTicket[]>();
        const secrets = new Map<number, { userTicketId: number; totpSecret: string }[]>();
        for (const t of page.tickets) {
          if (t.walletTotpSecret)
            secrets.set(t.holderId!, [
              ...(secrets.get(t.holderId!) ?? []),
              { userTicketId: t.userTicketId, totpSecret: t.walletTotpSecret },
            ]);
          const list = byHolder.get(t.holderId!) ?? [];
          list.push({
            userTicketId: t.userTicketId,
            ticketName: t.ticketName,
            usedAt: t.usedAt?.toISOString() ?? null,
            listed: t.listed,
            entryRules: t.entryRules,
            // None recorded: absent, so the door reads a first use as one entry (`scansOf`), as the server does.
            scans: scans.get(t.userTicketId),
          });
          byHolder.set(t.holderId!, list);
        }
        const holders = page.holders.map((h) => ({
          userId: h.id,
          holderName: holderDisplayName(h),
          tickets: byHolder.get(h.id) ?? [],
          ...(secrets.has(h.id) && { walletTotpSecrets: secrets.get(h.id) }),
        }));
        return {
          eventId,
          takenAt: takenAt.toISOString(),
          timeZone: event.timeZone,
          passPublicKeys: keys.publicKeys,
          passTtlSeconds: keys.ttl,
          passSkewSteps: keys.skewSteps,
          holders,
          nextAfter: holders.length === limit ? holders[holders.length - 1].userId : null,
        };
      });
    },
  };
}
