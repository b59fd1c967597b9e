/**
 * PUT /v1/org/events/{externalId}: creates or replaces an event from the event form. The wall times are read in
 * the form's time zone (zoned-time.ts) and sent as ISO 8601 UTC; what the form does not edit goes back as it was
 * (a PUT replaces the event); `notify` false saves a change of time or place without e-mailing the holders (issue 46).
 * Refreshes the event lists.
 * @throws ApiError validation keys (`api.invalid_request_body` with `fields`).
 */
import type { organisations } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation, type FormMutationOptions } from '../../form-mutation';
import { zonedToIso } from '../../zoned-time';
import type { EventItem } from '../../events-list.api';

/** The countries an event can be in (the contract's `eventUpsertRequest.country`). */
export const EVENT_COUNTRIES = ['AU', 'NZ'] as const satisfies readonly organisations.EventUpsertRequest['country'][];
export type EventCountry = (typeof EVENT_COUNTRIES)[number];

/** The event form's inputs: the times as `datetime-local` wall times in `timeZone`. */
export type EventFields = {
  externalId: string;
  name: string;
  venue: string;
  city: string;
  country: EventCountry;
  address: string;
  timeZone: string;
  startsAt: string;
  endsAt: string;
  passRevealAt: string;
  transfersCloseAt: string;
  /** Whether a change of the event's time or place e-mails its holders (issue 46). */
  notify: boolean;
};

/** The form's fields of the event's time and place: a change of one of them is told to the holders (issue 46). */
export const TIME_AND_PLACE_FIELDS = [
  'venue',
  'address',
  'city',
  'country',
  'timeZone',
  'startsAt',
  'endsAt',
] as const satisfies readonly (keyof EventFields)[];

/** The event's fields the form does not edit, as they are (absent when unset). */
function keptFields(event: EventItem | null) {
  if (!event) return {};
  const { description, latitude, longitude, imageUrl, logoUrl } = event;
  return Object.fromEntries(
    Object.entries({ description, latitude, longitude, imageUrl, logoUrl }).filter(([, v]) => v !== null),
  );
}

/** The PUT of the form's values over `event` (null: a new one). */
export function saveEvent(v: EventFields, event: EventItem | null) {
  const timeZone = v.timeZone.trim();
  return org.PUT('/v1/org/events/{externalId}', {
    params: { path: { externalId: v.externalId }, ...(v.notify ? {} : { query: { notify: 'false' as const } }) },
    body: {
      name: v.name,
      venue: v.venue,
      city: v.city,
      country: v.country,
      timeZone,
      ...(v.address ? { address: v.address } : {}),
      startsAt: zonedToIso(v.startsAt, timeZone) ?? v.startsAt,
      endsAt: zonedToIso(v.endsAt, timeZone) ?? v.endsAt,
      passRevealAt: zonedToIso(v.passRevealAt, timeZone),
      transfersCloseAt: zonedToIso(v.transfersCloseAt, timeZone),
      // What the form does not edit goes back as it was: a PUT replaces the event, and these were erased
      // (issue 41, re-walk: saving a demo event from the console lost its image and logo).
      ...keptFields(event),
    },
  });
}

/** The save mutation of the form of `event`; `onSuccess` runs after the lists are refreshed. */
export const useSaveEvent = (event: EventItem | null, options: FormMutationOptions<unknown>) =>
  useFormMutation((v: EventFields) => saveEvent(v, event), [consoleKeys.events.all], options);
