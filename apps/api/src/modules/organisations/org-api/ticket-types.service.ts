/**
 * The organisation API's ticket types and their benefits (issue 12): PUT /org/ticket-types/{externalId}.
 */
import type { organisations as contract } from '@tp/contract';
import type { EntryRules } from '@tp/contract/entry-rules';
import type * as z from 'zod';
import type { ticketTypes } from '../../../db/schema.js';
import { AppError } from '../../../lib/app-error.js';
import { orgApiRepository as repo, type TicketTypeRow } from '../org-api.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import { changed, type OrgApiDeps, type UpsertStatus } from './deps.js';
import { appendAudit } from '../../audit/audit.repository.js';

type TicketTypeInput = z.infer<typeof contract.ticketTypeUpsertRequest>;

/** A ticket type's columns by their names in the request, as `ticket_type.updated` names the fields it changed. */
const TYPE_FIELDS = {
  name: 'name',
  description: 'description',
  priceCents: 'priceCents',
  currencyCode: 'currency',
  maxResalePriceCents: 'resaleCapCents',
  isGiftable: 'isGiftable',
  isResellable: 'isResellable',
  isSwappable: 'isSwappable',
  stock: 'stock',
} as const satisfies Record<string, keyof TicketTypeInput>;

/** The ticket-types part of the organisation API: upsert by externalId, with benefits. */

/** Whether two entry rules (or nulls) say the same, whatever the order of their keys. */
const sameRules = (a: EntryRules | null, b: EntryRules | null) => {
  const canonical = (r: EntryRules | null) => r && JSON.stringify({ days: r.days, entries: r.entries, zones: r.zones });
  return canonical(a) === canonical(b);
};

export function createOrgTicketTypesService(deps: Pick<OrgApiDeps, 'database' | 'now'>) {
  const db = deps.database.db;
  return {
    /**
     * PUT /org/ticket-types/{externalId}. Benefits are matched by their externalId within the type: new ones are
     * added (and given to the type's live tickets), known ones updated; benefits left out are kept (holders may
     * have used them). `resaleCapCents` defaults to `priceCents`. `stock` (when given) is set as it is: the swap
     * stock left. `swapTargets` add swap pairs to other types of the same event (or change their price
     * difference); pairs left out are kept (holders may have swaps under way). `entryRules` (decision 050) are set
     * when given (null: none), kept when absent. Audited `ticket_type.created` or
     * `ticket_type.updated` in the same transaction (nothing when unchanged; nothing when refused, as the
     * transaction rolls back); an update's entry names the changed fields (`detail.fields`, the request's names,
     * `benefits` and `swapTargets` included) and, when the price changed, `detail.price` `{ fromCents, toCents,
     * currency }`.
     * @throws AppError `api.org.event_not_found` (404), `api.org.ticket_type_not_found` (404: a swap target),
     *   `api.org.event_cancelled` (409: the event is cancelled; its row is locked, so a cancel waits for the change),
     *   `api.org.ticket_type_event_locked` (409: the type exists under another event),
     *   `api.org.swap_target_invalid` (422: the type itself or another event's type).
     */
    async upsertTicketType(
      org: RequestOrganisation,
      externalId: string,
      input: TicketTypeInput,
    ): Promise<UpsertStatus> {
      return db.transaction(async (tx) => {
        const event = await repo.eventByExternalId(tx, org.id, input.eventExternalId, true);
        if (!event) throw new AppError('api.org.event_not_found');
        // A cancelled event is final (issue 46): no new type, no change of one (its tickets neither admit nor move).
        if (event.cancelledAt) throw new AppError('api.org.event_cancelled');
        const values = {
          name: input.name,
          description: input.description ?? null,
          priceCents: input.priceCents,
          currencyCode: input.currency,
          maxResalePriceCents: input.resaleCapCents ?? input.priceCents,
          isGiftable: input.isGiftable,
          isResellable: input.isResellable,
          isSwappable: input.isSwappable,
          ...(input.stock !== undefined ? { stock: input.stock } : {}),
        } satisfies Partial<typeof ticketTypes.$inferInsert>;
        let status: UpsertStatus = 'unchanged';
        // What `ticket_type.updated` says changed (issue 41 point 12, re-walk): the request's names of the fields
        // whose value changed, `benefits` and `swapTargets` when any did, and the price before and after in cents.
        const fields = new Set<string>();
        let price: { fromCents: number; toCents: number; currency: string } | undefined;
        let type: TicketTypeRow | undefined = await repo.ticketTypeByExternalId(tx, org.id, externalId, true);
        if (!type) {
          type = await repo.insertTicketType(tx, {
            ...values,
            entryRules: input.entryRules ?? null,
            organisationId: org.id,
            externalId,
            eventId: event.id,
          });
          if (!type) type = await repo.ticketTypeByExternalId(tx, org.id, externalId, true);
          else status = 'created';
        }
        if (!type) throw new AppError('api.service_unavailable');
        if (type.eventId !== event.id) throw new AppError('api.org.ticket_type_event_locked');
        if (status !== 'created') {
          const diff = changed(type, values);
          if (Object.keys(diff).length) {
            await repo.updateTicketType(tx, type.id, diff);
            status = 'updated';
            for (const k of Object.keys(diff)) fields.add(TYPE_FIELDS[k as keyof typeof TYPE_FIELDS]);
            if (diff.priceCents !== undefined)
              price = { fromCents: type.priceCents, toCents: values.priceCents, currency: values.currencyCode };
          }
        }
        // Entry rules (issue 48): absent keeps them, null clears them; compared field by field, whatever the order of
        // the keys in the stored JSON (jsonb keeps its own).
        if (status !== 'created' && input.entryRules !== undefined && !sameRules(type.entryRules, input.entryRules)) {
          await repo.updateTicketType(tx, type.id, { entryRules: input.entryRules });
          status = 'updated';
          fields.add('entryRules');
        }
        const known = new Map((await repo.benefitsOfType(tx, type.id)).map((b) => [b.externalId, b] as const));
        for (const b of input.benefits ?? []) {
          const benefitValues = {
            name: b.name,
            type: b.type,
            shortDescription: b.shortDescription ?? null,
            fullDescription: b.fullDescription ?? null,
            icon: b.iconUrl ?? null,
            validUntil: b.validUntil ? new Date(b.validUntil) : null,
            isUnlockable: b.isUnlockable ?? false,
            redeemCode: b.redeemCode ?? null,
          };
          const current = known.get(b.externalId);
          if (!current) {
            const row = await repo.insertBenefit(tx, {
              ...benefitValues,
              ticketTypeId: type.id,
              externalId: b.externalId,
            });
            await repo.grantBenefitToType(tx, row.id, type.id);
            if (status === 'unchanged') status = 'updated';
            fields.add('benefits');
            continue;
          }
          const diff = changed(current, benefitValues);
          if (Object.keys(diff).length) {
            await repo.updateBenefit(tx, current.id, diff);
            if (status === 'unchanged') status = 'updated';
            fields.add('benefits');
          }
        }
        for (const target of input.swapTargets ?? []) {
          const to = await repo.ticketTypeByExternalId(tx, org.id, target.ticketTypeExternalId);
          if (!to) throw new AppError('api.org.ticket_type_not_found');
          if (to.id === type.id || to.eventId !== type.eventId) throw new AppError('api.org.swap_target_invalid');
          if (await repo.upsertSwapPair(tx, type.id, to.id, target.priceDifferenceCents ?? null)) {
            if (status === 'unchanged') status = 'updated';
            fields.add('swapTargets');
          }
        }
        if (status !== 'unchanged')
          await appendAudit(tx, org.id, org.actor, deps.now(), {
            action: status === 'created' ? 'ticket_type.created' : 'ticket_type.updated',
            resourceType: 'ticket_type',
            resourceId: externalId,
            detail: {
              eventExternalId: input.eventExternalId,
              ...(status === 'updated' && { fields: [...fields] }),
              ...(price && { price }),
            },
          });
        return status;
      });
    },
  };
}
