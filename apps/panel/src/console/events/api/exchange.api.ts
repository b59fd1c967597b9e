/**
 * An event's exchange queue in the console (issue 45, decision 042): GET /v1/org/events/{externalId}/exchange (the
 * settings, null before the first save, and per ticket type the entries waiting, offers open, tickets returned,
 * released, sold and offers expired; read again every `REFRESH_MS` while open), PUT of the settings from the form
 * (times typed as wall times in the event's zone), and POST .../exchange/releases (tickets released at a price in
 * major units, sent in cents). Saving and releasing refresh the overview.
 * @throws ApiError `api.org.event_not_found`, `api.org.exchange.price_above_face_value`, validation keys.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { exchange } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation, type FormMutationOptions } from '../../form-mutation';
import { zonedToIso } from '../../zoned-time';
import { REFRESH_MS } from './attendance.api';

export type ExchangeOverview = exchange.ExchangeOverview;

export const exchangeQuery = (externalId: string) =>
  queryOptions({
    queryKey: consoleKeys.events.exchange(externalId),
    queryFn: (): Promise<ExchangeOverview> =>
      org.GET('/v1/org/events/{externalId}/exchange', { params: { path: { externalId } } }),
    refetchInterval: REFRESH_MS,
  });

export const useExchange = (externalId: string) => useQuery(exchangeQuery(externalId));

/** The settings form's inputs: numbers as typed, times as `datetime-local` wall times ('' for none). */
export type ExchangeFields = {
  enabled: boolean;
  offerMinutes: string;
  order: 'first_come' | 'draw';
  drawAt: string;
  maxQuantity: string;
  closesAt: string;
};

/** The PUT body of the form's values, the times read in `timeZone`. */
export const exchangeSettingsBody = (v: ExchangeFields, timeZone: string): exchange.ExchangeSettingsRequest => {
  const drawAt = v.order === 'draw' ? zonedToIso(v.drawAt, timeZone) : null;
  const closesAt = zonedToIso(v.closesAt, timeZone);
  return {
    enabled: v.enabled,
    offerMinutes: Number(v.offerMinutes),
    order: v.order,
    maxQuantity: Number(v.maxQuantity),
    ...(drawAt ? { drawAt } : {}),
    ...(closesAt ? { closesAt } : {}),
  };
};

export const useSaveExchange = (externalId: string, timeZone: string, options: FormMutationOptions<ExchangeOverview>) =>
  useFormMutation(
    (v: ExchangeFields) =>
      org.PUT('/v1/org/events/{externalId}/exchange', {
        params: { path: { externalId } },
        body: exchangeSettingsBody(v, timeZone),
      }),
    [consoleKeys.events.exchange(externalId)],
    options,
  );

/** The release form's inputs: the type's id, how many, the price each as typed ("45.50"). */
export type ReleaseFields = { ticketTypeExternalId: string; quantity: string; price: string };

export const useRelease = (externalId: string, options: FormMutationOptions<exchange.ExchangeReleaseResponse>) =>
  useFormMutation(
    (v: ReleaseFields) =>
      org.POST('/v1/org/events/{externalId}/exchange/releases', {
        params: { path: { externalId } },
        body: {
          ticketTypeExternalId: v.ticketTypeExternalId,
          quantity: Number(v.quantity),
          priceCents: Math.round(Number(v.price.replace(',', '.')) * 100),
        },
      }),
    [consoleKeys.events.exchange(externalId)],
    options,
  );
