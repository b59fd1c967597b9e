/**
 * Events (issue 21): the organisation's events, upcoming or past; create or edit one by form (PUT
 * /v1/org/events/{externalId}); its ticket types, created or edited by form (PUT /v1/org/ticket-types/{externalId})
 * with stock and swap targets; its dashboard (dashboard.tsx).
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import { formatDateRange, langOf } from '@tp/contract/format';
import type * as z from 'zod';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { org } from './api';
import { consoleKeys } from './console-query-keys';
import { Dashboard } from './dashboard';
import { TableRegion } from './table-region';
import { countryOptions } from './country-names';
import { isTimeZone, isoToZoned, zonedToIso } from './zoned-time';
import { QueryState } from './query-state';
import { FieldError, fieldErrorText, useServerErrors } from './server-errors';
import { goUp, navigate, type ConsoleRoute } from './routing';
import { keptTicketTypeFields } from './kept-fields';

type EventItem = z.infer<typeof organisations.eventItem>;
type TicketTypeItem = z.infer<typeof organisations.ticketTypeItem>;
type Page<T> = { items: T[]; nextCursor: string | null };
type EventsRoute = Extract<ConsoleRoute, { screen: 'events' }>;
const LIST: ConsoleRoute = { screen: 'events' };

/** The events screen at `route` (routing.ts): the list, the new-event form, or a view of one event. */
export function EventsScreen({ route }: { route: EventsRoute }) {
  const { t } = useTranslation();
  const [when, setWhen] = useState<'upcoming' | 'past'>('upcoming');
  // An event made outside the organisation API (the demo's) has no id of the organiser's, so no URL: its form and
  // its ticket types open in place.
  const [unnamed, setUnnamed] = useState<{ event: EventItem; view: 'edit' | 'ticket-types' } | null>(null);
  const events = useQuery({
    queryKey: consoleKeys.events.list(when),
    queryFn: (): Promise<Page<EventItem>> => org.GET('/v1/org/events', { params: { query: { when, limit: 100 } } }),
  });

  if (route.view === 'new') return <EventForm event={null} onDone={() => goUp(LIST)} />;
  if ('event' in route) return <EventView key={route.event} route={route} />;
  if (unnamed?.view === 'edit') return <EventForm event={unnamed.event} onDone={() => setUnnamed(null)} />;
  if (unnamed) return <TicketTypes event={unnamed.event} onBack={() => setUnnamed(null)} />;
  /** The view of an event: its URL, or in place for an event without the organiser's id. */
  const open = (e: EventItem, view: 'edit' | 'ticket-types' | 'dashboard') => {
    if (e.externalId !== null) navigate({ screen: 'events', event: e.externalId, view });
    else if (view !== 'dashboard') setUnnamed({ event: e, view });
  };
  return (
    <section className="stack">
      <div className="row">
        <h1 style={{ marginRight: 'auto' }}>{t('console.events.title')}</h1>
        <Button onClick={() => navigate({ screen: 'events', view: 'new' })}>{t('console.events.new')}</Button>
      </div>
      <div className="row" role="group" aria-label={t('console.events.when')}>
        {(['upcoming', 'past'] as const).map((w) => (
          <Button
            key={w}
            variant={w === when ? 'primary' : 'ghost'}
            className="btn--small"
            aria-pressed={w === when}
            onClick={() => setWhen(w)}
          >
            {t(`console.events.${w}`)}
          </Button>
        ))}
      </div>
      <QueryState query={events} empty={events.data?.items.length === 0} none={t('console.events.none')} />
      <div className="grid">
        {events.data?.items.map((e) => (
          <article key={e.externalId} className="card stack">
            <h2>{e.name}</h2>
            <p className="muted">
              {formatDateRange(e.startsAt, e.endsAt, e.timeZone, langOf(document.documentElement.lang))}
              {' · '}
              {e.venue}, {e.city}
            </p>
            <div className="row">
              <Button
                variant="secondary"
                className="btn--small"
                onClick={() => open(e, 'edit')}
                aria-label={`${t('console.edit')}: ${e.name}`}
              >
                {t('console.edit')}
              </Button>
              <Button
                variant="secondary"
                className="btn--small"
                onClick={() => open(e, 'ticket-types')}
                aria-label={`${t('console.events.ticket_types')}: ${e.name}`}
              >
                {t('console.events.ticket_types')}
              </Button>
              {e.externalId !== null && (
                <Button
                  variant="secondary"
                  className="btn--small"
                  onClick={() => open(e, 'dashboard')}
                  aria-label={`${t('console.events.dashboard')}: ${e.name}`}
                >
                  {t('console.events.dashboard')}
                </Button>
              )}
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}

/**
 * One event's view (its form, dashboard, ticket types or a ticket type's form), the event read by its id: from the
 * lists already loaded when the console came from them, else GET /org/events/{externalId} (a reload, a link).
 */
function EventView({ route }: { route: Extract<EventsRoute, { event: string }> }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const id = route.event;
  const found = useQuery({
    queryKey: consoleKeys.events.detail(id),
    queryFn: (): Promise<EventItem> => org.GET('/v1/org/events/{externalId}', { params: { path: { externalId: id } } }),
    initialData: () =>
      client
        .getQueriesData<Page<EventItem>>({ queryKey: consoleKeys.events.all })
        .flatMap(([, page]) => (page && Array.isArray(page.items) ? page.items : []))
        .find((e) => e.externalId === id),
  });
  if (!found.data)
    return (
      <section className="stack">
        <div className="row">
          <Button variant="ghost" className="btn--small" onClick={() => goUp(LIST)}>
            {t('console.back')}
          </Button>
        </div>
        <QueryState query={found} />
      </section>
    );
  const event = { ...found.data, externalId: id };
  if (route.view === 'edit') return <EventForm event={event} onDone={() => goUp(LIST)} />;
  if (route.view === 'dashboard') return <Dashboard event={event} onBack={() => goUp(LIST)} />;
  return (
    <TicketTypes event={event} type={route.view === 'ticket-type' ? route.type : undefined} onBack={() => goUp(LIST)} />
  );
}

type EventFields = {
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
};

/** The countries an event can be in (the contract's `eventUpsertRequest.country`). */
const EVENT_COUNTRIES = ['AU', 'NZ'] as const satisfies readonly organisations.EventUpsertRequest['country'][];
type EventCountry = (typeof EVENT_COUNTRIES)[number];

/** The event's fields the form does not edit, as they are (absent when unset). */
function keptFields(event: EventItem | null) {
  if (!event) return {};
  const { description, latitude, longitude, imageUrl, logoUrl } = event;
  return Object.fromEntries(
    Object.entries({ description, latitude, longitude, imageUrl, logoUrl }).filter(([, v]) => v !== null),
  );
}

function EventForm({ event, onDone }: { event: EventItem | null; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const tz = event?.timeZone ?? 'Australia/Sydney';
  const form = useForm<EventFields>({
    defaultValues: {
      externalId: event?.externalId ?? '',
      name: event?.name ?? '',
      venue: event?.venue ?? '',
      city: event?.city ?? '',
      country: (event?.country as EventCountry) ?? 'AU',
      address: event?.address ?? '',
      timeZone: tz,
      startsAt: isoToZoned(event?.startsAt ?? null, tz),
      endsAt: isoToZoned(event?.endsAt ?? null, tz),
      passRevealAt: isoToZoned(event?.passRevealAt ?? null, tz),
      transfersCloseAt: isoToZoned(event?.transfersCloseAt ?? null, tz),
    },
  });
  const { formError, setFormError, show } = useServerErrors(form);
  const save = useMutation({
    onMutate: () => setFormError(null),
    mutationFn: (v: EventFields) => {
      const timeZone = v.timeZone.trim();
      return org.PUT('/v1/org/events/{externalId}', {
        params: { path: { externalId: v.externalId } },
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
    },
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: consoleKeys.events.all });
      onDone();
    },
    onError: show,
  });
  const err = (name: keyof EventFields) => form.formState.errors[name]?.message;
  const required = { required: t('console.required') };
  return (
    <form className="card stack" onSubmit={(e) => void form.handleSubmit((v) => save.mutate(v))(e)} noValidate>
      <h1>{event ? t('console.events.edit_title', { name: event.name }) : t('console.events.new_title')}</h1>
      <div className="grid">
        <Field
          label={t('console.events.external_id')}
          readOnly={!!event}
          error={err('externalId')}
          {...form.register('externalId', required)}
        />
        <Field label={t('console.events.name')} error={err('name')} {...form.register('name', required)} />
        <Field label={t('console.events.venue')} error={err('venue')} {...form.register('venue', required)} />
        <Field label={t('console.events.address')} error={err('address')} {...form.register('address')} />
        <Field label={t('console.events.city')} error={err('city')} {...form.register('city', required)} />
        <div className="field">
          <label className="field__label" htmlFor="event-country">
            {t('console.events.country')}
          </label>
          <select
            id="event-country"
            className="select"
            aria-invalid={err('country') ? true : undefined}
            aria-describedby={err('country') ? 'event-country-error' : undefined}
            {...form.register('country')}
          >
            {countryOptions(EVENT_COUNTRIES, i18n.language).map(({ code, name }) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
          <FieldError id="event-country-error" message={err('country')} />
        </div>
        <Field
          label={t('console.events.time_zone')}
          error={err('timeZone')}
          {...form.register('timeZone', {
            ...required,
            // The wall times are read in this zone before the answer: a zone the browser does not know is refused here,
            // with the API's text for the field.
            validate: (v) => isTimeZone(v.trim()) || fieldErrorText(t, 'timeZone'),
          })}
        />
        <Field
          label={t('console.events.starts_at')}
          type="datetime-local"
          error={err('startsAt')}
          {...form.register('startsAt', required)}
        />
        <Field
          label={t('console.events.ends_at')}
          type="datetime-local"
          error={err('endsAt')}
          {...form.register('endsAt', required)}
        />
        <Field
          label={t('console.events.pass_reveal_at')}
          type="datetime-local"
          helper={t('console.events.pass_reveal_help')}
          error={err('passRevealAt')}
          {...form.register('passRevealAt')}
        />
        <Field
          label={t('console.events.transfers_close_at')}
          type="datetime-local"
          helper={t('console.events.transfers_close_help')}
          error={err('transfersCloseAt')}
          {...form.register('transfersCloseAt')}
        />
      </div>
      {formError && (
        <p className="error" role="alert">
          {formError}
        </p>
      )}
      <div className="row">
        <Button type="submit" loading={save.isPending}>
          {t('console.save')}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          {t('console.cancel')}
        </Button>
      </div>
    </form>
  );
}

/**
 * An event's ticket types; `type` (from the URL) opens a type's form: its id, or `null` for a new one. An event
 * without the organiser's id has none to list (its view opens in place, without a URL).
 */
function TicketTypes({ event, type, onBack }: { event: EventItem; type?: string | null; onBack: () => void }) {
  const { t } = useTranslation();
  const types = useQuery({
    queryKey: consoleKeys.ticketTypes.of(event.externalId),
    queryFn: (): Promise<Page<TicketTypeItem>> =>
      org.GET('/v1/org/ticket-types', { params: { query: { event: event.externalId ?? '', limit: 200 } } }),
    // An event made outside the organisation API (the demo's) has no id of the organiser's to list types by.
    enabled: event.externalId !== null,
  });
  if (event.externalId === null)
    return (
      <section className="stack">
        <div className="row">
          <Button variant="ghost" className="btn--small" onClick={onBack}>
            {t('console.back')}
          </Button>
          <h1>{t('console.types.title', { event: event.name })}</h1>
        </div>
        <p className="muted" data-testid="types-no-external-id">
          {t('console.types.no_external_id')}
        </p>
      </section>
    );
  const all = types.data?.items ?? [];
  const eventId = event.externalId;
  const list = { screen: 'events', event: eventId, view: 'ticket-types' } as const;
  const edit = (typeId: string | null) =>
    navigate({ screen: 'events', event: eventId, view: 'ticket-type', type: typeId });
  const editing = type === null ? null : all.find((ty) => ty.externalId === type);
  if (type === null || editing)
    return <TicketTypeForm event={event} type={editing ?? null} others={all} onDone={() => goUp(list)} />;
  if (type !== undefined && !types.data) return <QueryState query={types} />;
  return (
    <section className="stack">
      <div className="row">
        <Button variant="ghost" className="btn--small" onClick={onBack}>
          {t('console.back')}
        </Button>
        <h1 style={{ marginRight: 'auto' }}>{t('console.types.title', { event: event.name })}</h1>
        <Button onClick={() => edit(null)}>{t('console.types.new')}</Button>
      </div>
      <QueryState query={types} empty={all.length === 0} none={t('console.types.none')} />
      <TableRegion label={t('console.events.ticket_types')}>
        <table>
          <thead>
            <tr>
              <th>{t('console.types.external_id')}</th>
              <th>{t('console.types.name')}</th>
              <th>{t('console.types.price')}</th>
              <th>{t('console.types.stock')}</th>
              <th>
                <span className="visually-hidden">{t('console.edit')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {all.map((ty) => (
              <tr key={ty.externalId}>
                <td>{ty.externalId}</td>
                <td>{ty.name}</td>
                <td>
                  {new Intl.NumberFormat(document.documentElement.lang, {
                    style: 'currency',
                    currency: ty.currency,
                  }).format(ty.priceCents / 100)}
                </td>
                <td data-label={t('console.types.stock')}>{ty.stock}</td>
                <td>
                  <Button
                    variant="secondary"
                    className="btn--small"
                    onClick={() => ty.externalId !== null && edit(ty.externalId)}
                    aria-label={`${t('console.edit')}: ${ty.name}`}
                  >
                    {t('console.edit')}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </section>
  );
}

type TypeFields = {
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

function TicketTypeForm(props: {
  event: EventItem;
  type: TicketTypeItem | null;
  others: TicketTypeItem[];
  onDone: () => void;
}) {
  const { event, type, onDone } = props;
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useForm<TypeFields>({
    defaultValues: {
      externalId: type?.externalId ?? '',
      name: type?.name ?? '',
      price: type ? (type.priceCents / 100).toFixed(2) : '',
      currency: type?.currency ?? (event.country === 'NZ' ? 'NZD' : 'AUD'),
      stock: type ? String(type.stock) : '',
      isGiftable: type?.isGiftable ?? true,
      isResellable: type?.isResellable ?? true,
      isSwappable: type?.isSwappable ?? false,
      swapTargets: type?.swapTargets.map((s) => s.ticketTypeExternalId ?? '') ?? [],
    },
  });
  const { formError, setFormError, show } = useServerErrors(
    form,
    { priceCents: 'price', resaleCapCents: 'price' },
    { 'api.org.swap_target_invalid': 'swapTargets', 'api.org.ticket_type_event_locked': 'externalId' },
  );
  const save = useMutation({
    onMutate: () => setFormError(null),
    mutationFn: (v: TypeFields) =>
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
      }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: consoleKeys.ticketTypes.of(event.externalId) });
      onDone();
    },
    onError: show,
  });
  const err = (name: keyof TypeFields) => form.formState.errors[name]?.message;
  const required = { required: t('console.required') };
  const targets = props.others.filter((o) => o.externalId && o.externalId !== type?.externalId);
  return (
    <form className="card stack" onSubmit={(e) => void form.handleSubmit((v) => save.mutate(v))(e)} noValidate>
      <h1>{type ? t('console.types.edit_title', { name: type.name }) : t('console.types.new_title')}</h1>
      <div className="grid">
        <Field
          label={t('console.types.external_id')}
          readOnly={!!type}
          error={err('externalId')}
          {...form.register('externalId', required)}
        />
        <Field label={t('console.types.name')} error={err('name')} {...form.register('name', required)} />
        <Field
          label={t('console.types.price')}
          inputMode="decimal"
          error={err('price')}
          {...form.register('price', required)}
        />
        <div className="field">
          <label className="field__label" htmlFor="type-currency">
            {t('console.types.currency')}
          </label>
          <select
            id="type-currency"
            className="select"
            aria-invalid={err('currency') ? true : undefined}
            aria-describedby={err('currency') ? 'type-currency-error' : undefined}
            {...form.register('currency')}
          >
            <option value="AUD">AUD</option>
            <option value="NZD">NZD</option>
          </select>
          <FieldError id="type-currency-error" message={err('currency')} />
        </div>
        <Field
          label={t('console.types.stock')}
          inputMode="numeric"
          helper={t('console.types.stock_help')}
          error={err('stock')}
          {...form.register('stock')}
        />
      </div>
      <fieldset className="stack">
        <legend>{t('console.types.holders_may')}</legend>
        {(['isGiftable', 'isResellable', 'isSwappable'] as const).map((k) => (
          <label key={k} className="check">
            <input type="checkbox" {...form.register(k)} /> {t(`console.types.${k}`)}
          </label>
        ))}
      </fieldset>
      {targets.length > 0 && (
        <fieldset className="stack">
          <legend>{t('console.types.swap_targets')}</legend>
          {targets.map((o) => (
            <label key={o.externalId} className="check">
              <input type="checkbox" value={o.externalId ?? ''} {...form.register('swapTargets')} /> {o.name}
            </label>
          ))}
          <FieldError message={err('swapTargets')} />
        </fieldset>
      )}
      {formError && (
        <p className="error" role="alert">
          {formError}
        </p>
      )}
      <div className="row">
        <Button type="submit" loading={save.isPending}>
          {t('console.save')}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          {t('console.cancel')}
        </Button>
      </div>
    </form>
  );
}
