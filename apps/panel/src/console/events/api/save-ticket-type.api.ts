/**
 * PUT /v1/org/ticket-types/{externalId}: creates or replaces a ticket type of an event from the type form: the
 * price typed in major units (a comma or a point) sent in cents, the stock when given, the swap targets by id; what
 * the form does not edit goes back as it was (kept-fields.ts); its entry rules (issue 48) only when the form changed
 * them. Refreshes the event's types.
 * @throws ApiError `api.org.swap_target_invalid`, `api.org.ticket_type_event_locked` and validation keys.
 */
import type { EntryKind, EntryRules } from '@tp/contract/entry-rules';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation, type FormMutationOptions } from '../../form-mutation';
import { keptTicketTypeFields } from '../../kept-fields';
import type { EventItem } from '../../events-list.api';
import type { TicketTypeItem } from './ticket-types.api';

/**
 * The type form's inputs: `price` as typed ("12.50"), `stock` empty for none; the entry rules as edited: `days`
 * event-local dates ticked (none: every day), `entries`, `zones` added (none: every zone) and `zoneDraft`, the zone
 * input as typed and not yet added (names separated by commas), saved with them.
 */
export type TypeFields = {
  externalId: string;
  name: string;
  price: string;
  currency: string;
  stock: string;
  isGiftable: boolean;
  isResellable: boolean;
  isSwappable: boolean;
  swapTargets: string[];
  days: string[];
  entries: EntryKind;
  zones: string[];
  zoneDraft: string;
};

/** The zone names typed in the zone input: separated by commas, trimmed, empty ones left out. */
export const splitZones = (typed: string): string[] =>
  typed
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

type RuleFields = Pick<TypeFields, 'days' | 'entries' | 'zones' | 'zoneDraft'>;

/** The rules the form's inputs mean; null for today's behaviour (once, any day, any zone). */
function entryRulesOf(v: RuleFields): EntryRules | null {
  const zones = [...new Set([...v.zones, ...splitZones(v.zoneDraft)])];
  if (v.days.length === 0 && v.entries === 'once' && zones.length === 0) return null;
  return {
    ...(v.days.length ? { days: [...v.days].sort() } : {}),
    entries: v.entries,
    ...(zones.length ? { zones } : {}),
  };
}

/** The form's inputs of a type's rules (null: none): what the form shows, and what it compares against. */
export const entryFieldsOf = (rules: EntryRules | null | undefined): RuleFields => ({
  days: rules?.days ?? [],
  entries: rules?.entries ?? 'once',
  zones: rules?.zones ?? [],
  zoneDraft: '',
});

/**
 * `entryRules` of the PUT: left out when the form's rules mean what the type has (absent keeps them; a new type has
 * none), else the new rules, or null to clear them.
 */
function entryRulesChange(v: TypeFields, type: TicketTypeItem | null): { entryRules?: EntryRules | null } {
  const rules = entryRulesOf(v);
  const before = entryRulesOf(entryFieldsOf(type?.entryRules));
  return JSON.stringify(rules) === JSON.stringify(before) ? {} : { entryRules: rules };
}

/** The PUT of the form's values over `type` (null: a new one) of `event`. */
export const saveTicketType = (v: TypeFields, event: EventItem, type: TicketTypeItem | null) =>
  org.PUT('/v1/org/ticket-types/{externalId}', {
    params: { path: { externalId: v.externalId } },
    body: {
      ...keptTicketTypeFields(type),
      eventExternalId: event.externalId ?? '',
      name: v.name,
      priceCents: Math.round(Number(v.price.replace(',', '.')) * 100),
      currency: v.currency,
      isGiftable: v.isGiftable,
      isResellable: v.isResellable,
      isSwappable: v.isSwappable,
      ...(v.stock !== '' ? { stock: Number(v.stock) } : {}),
      swapTargets: v.swapTargets.map((id) => ({ ticketTypeExternalId: id })),
      ...entryRulesChange(v, type),
    },
  });

/** The save mutation of the form of `type` of `event`; `onSuccess` runs after the types are refreshed. */
export const useSaveTicketType = (
  event: EventItem,
  type: TicketTypeItem | null,
  options: FormMutationOptions<unknown>,
) =>
  useFormMutation(
    (v: TypeFields) => saveTicketType(v, event, type),
    [consoleKeys.ticketTypes.of(event.externalId)],
    options,
  );
