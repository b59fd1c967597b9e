/**
 * PUT /v1/org/ticket-types/{externalId}: creates or replaces a ticket type of an event from the type form: the
 * price typed in major units (a comma or a point) sent in cents, the stock when given, the swap targets by id; what
 * the form does not edit goes back as it was (kept-fields.ts). Refreshes the event's types.
 * @throws ApiError `api.org.swap_target_invalid`, `api.org.ticket_type_event_locked` and validation keys.
 */
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation, type FormMutationOptions } from '../../form-mutation';
import { keptTicketTypeFields } from '../../kept-fields';
import type { EventItem } from '../../events-list.api';
import type { TicketTypeItem } from './ticket-types.api';

/** The type form's inputs: `price` as typed ("12.50"), `stock` empty for none. */
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
};

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
