/**
 * An event's exchange queue in the console (issue 45, decision 042): per ticket type, the entries waiting, offers
 * open, tickets returned by holders, released by the organiser, sold and offers expired (exchange.api.ts, read again
 * every 30 s); the settings form (on or off, minutes an offer stays open, first come or a draw at a time, most
 * tickets an entry may ask for, when the queue closes; times as wall times in the event's zone); and the release
 * form (tickets of a type released at a price of at most its face value), below the organisation's payout account
 * (payout-account-box.tsx: released tickets are paid to it, so the release waits until it is verified). The API's
 * errors show at their fields. A cancelled event's queue closed for good (decision 045): its counts only, no forms
 * (the view's cancelled notice atop says why, event-view.tsx).
 */
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { formatAt, langOf } from '@tp/contract/format';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { FormFooter } from '../../form-footer';
import { QueryState } from '../../query-state';
import { SelectField } from '../../select-field';
import { ErrorBlock, useServerErrors } from '../../server-errors';
import { TableHead, TableRegion } from '../../table-region';
import { isoToZoned } from '../../zoned-time';
import {
  useExchange,
  useRelease,
  useSaveExchange,
  type ExchangeFields,
  type ExchangeOverview,
  type ReleaseFields,
} from '../api/exchange.api';
import { useOrgPayoutAccount } from '../api/payout-account.api';
import { useTicketTypes } from '../api/ticket-types.api';
import { PayoutAccountBox } from './payout-account-box';

type EventItem = z.infer<typeof organisations.eventItem> & { externalId: string };

/** The counts of a type, in the table's order. */
const COUNTS = ['waiting', 'offered', 'returned', 'released', 'sold', 'expired'] as const;

export function ExchangeView({ event, onBack }: { event: EventItem; onBack: () => void }) {
  const { t } = useTranslation();
  const overview = useExchange(event.externalId);
  const account = useOrgPayoutAccount();
  // Known not verified (an owner's view, or while it loads): the release waits. A staff member cannot read it (403):
  // the API's refusal, if any, shows at the release.
  const waits = account.isPending || account.data?.verified === false;
  return (
    <section className="stack">
      <div className="row">
        <h1 style={{ marginRight: 'auto' }}>{t('console.exchange.title', { name: event.name })}</h1>
        <Button variant="ghost" onClick={onBack}>
          {t('console.back')}
        </Button>
      </div>
      <p className="muted">{t('console.exchange.intro')}</p>
      <QueryState query={overview} />
      {overview.data && <Counts overview={overview.data} />}
      {overview.data && !event.cancelledAt && (
        <>
          <SettingsForm event={event} overview={overview.data} />
          <PayoutAccountBox account={account} />
          {overview.data.settings?.enabled && <ReleaseForm event={event} waits={waits} />}
        </>
      )}
    </section>
  );
}

function Counts({ overview }: { overview: ExchangeOverview }) {
  const { t } = useTranslation();
  const number = new Intl.NumberFormat(document.documentElement.lang);
  return (
    <TableRegion label={t('console.exchange.counts')} card>
      <table>
        <caption className="visually-hidden">{t('console.exchange.counts')}</caption>
        <TableHead columns={[t('console.exchange.type'), ...COUNTS.map((k) => t(`console.exchange.${k}`))]} />
        <tbody>
          {overview.types.map((type) => (
            <tr key={type.ticketTypeExternalId ?? type.name}>
              <th scope="row">{type.name}</th>
              {COUNTS.map((k) => (
                <td
                  key={k}
                  data-label={t(`console.exchange.${k}`)}
                  data-testid={`exchange-${type.ticketTypeExternalId}-${k}`}
                >
                  {number.format(type[k])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/** The settings form's values of `s` (null: never saved, the defaults), times as wall times in `tz`. */
const formValues = (s: ExchangeOverview['settings'], tz: string): ExchangeFields => ({
  enabled: s?.enabled ?? false,
  offerMinutes: String(s?.offerMinutes ?? 20),
  order: s?.order ?? 'first_come',
  drawAt: isoToZoned(s?.drawAt ?? null, tz),
  maxQuantity: String(s?.maxQuantity ?? 4),
  closesAt: isoToZoned(s?.closesAt ?? null, tz),
});

function SettingsForm({ event, overview }: { event: EventItem; overview: ExchangeOverview }) {
  const { t } = useTranslation();
  const s = overview.settings;
  const tz = event.timeZone;
  const form = useForm<ExchangeFields>({ defaultValues: formValues(s, tz) });
  const { formError, setFormError, show } = useServerErrors(form);
  // The saved settings become the form's (the server's `drawAt` and `closesAt` as stored).
  const save = useSaveExchange(event.externalId, tz, {
    onMutate: () => setFormError(null),
    onError: show,
    onSuccess: (answer) => form.reset(formValues(answer.settings, tz)),
  });
  const err = (name: keyof ExchangeFields) => form.formState.errors[name]?.message;
  const required = { required: t('console.required') };
  const draw = useWatch({ control: form.control, name: 'order' }) === 'draw';
  return (
    <form
      className="card stack"
      aria-labelledby="exchange-settings-title"
      onSubmit={(e) => void form.handleSubmit((v) => save.mutate(v))(e)}
      noValidate
    >
      <h2 id="exchange-settings-title">{t('console.exchange.settings')}</h2>
      <label className="check">
        <input type="checkbox" {...form.register('enabled')} /> {t('console.exchange.enabled')}
      </label>
      <div className="grid">
        <Field
          label={t('console.exchange.offer_minutes')}
          inputMode="numeric"
          helper={t('console.exchange.offer_minutes_help')}
          error={err('offerMinutes')}
          {...form.register('offerMinutes', required)}
        />
        <Field
          label={t('console.exchange.max_quantity')}
          inputMode="numeric"
          helper={t('console.exchange.max_quantity_help')}
          error={err('maxQuantity')}
          {...form.register('maxQuantity', required)}
        />
        <SelectField
          id="exchange-order"
          label={t('console.exchange.order')}
          error={err('order')}
          {...form.register('order')}
        >
          <option value="first_come">{t('console.exchange.first_come')}</option>
          <option value="draw">{t('console.exchange.draw')}</option>
        </SelectField>
        {draw && (
          <Field
            label={t('console.exchange.draw_at')}
            type="datetime-local"
            helper={t('console.exchange.draw_at_help')}
            error={err('drawAt')}
            {...form.register('drawAt', required)}
          />
        )}
        <Field
          label={t('console.exchange.closes_at')}
          type="datetime-local"
          helper={t('console.exchange.closes_at_help')}
          error={err('closesAt')}
          {...form.register('closesAt')}
        />
      </div>
      {s && (
        <p className="muted" data-testid="exchange-closes">
          {s.closedAt
            ? t('console.exchange.closed')
            : t('console.exchange.closes', {
                at: formatAt(s.effectiveClosesAt, tz, langOf(document.documentElement.lang)),
              })}
        </p>
      )}
      <ErrorBlock message={formError} />
      <FormFooter submit={t('console.save')} pending={save.isPending} />
      {save.isSuccess && (
        <p role="status" className="muted">
          {t('console.exchange.saved')}
        </p>
      )}
    </form>
  );
}

/** `waits`: the organisation's payout account is not verified yet, so the submit is held back. */
function ReleaseForm({ event, waits }: { event: EventItem; waits: boolean }) {
  const { t } = useTranslation();
  const types = useTicketTypes(event.externalId);
  const form = useForm<ReleaseFields>({ defaultValues: { ticketTypeExternalId: '', quantity: '1', price: '' } });
  const { formError, setFormError, show } = useServerErrors(form);
  const release = useRelease(event.externalId, {
    onMutate: () => setFormError(null),
    onError: show,
    onSuccess: () => form.reset({ ...form.getValues(), quantity: '1' }),
  });
  const err = (name: keyof ReleaseFields) => form.formState.errors[name]?.message;
  const required = { required: t('console.required') };
  const named = (types.data?.items ?? []).filter((type) => type.externalId !== null);
  return (
    <form
      className="card stack"
      aria-labelledby="exchange-release-title"
      onSubmit={(e) => void form.handleSubmit((v) => release.mutate(v))(e)}
      noValidate
    >
      <h2 id="exchange-release-title">{t('console.exchange.release_title')}</h2>
      <p className="muted">{t('console.exchange.release_help')}</p>
      <div className="grid">
        <SelectField
          id="exchange-release-type"
          label={t('console.exchange.type')}
          error={err('ticketTypeExternalId')}
          {...form.register('ticketTypeExternalId', required)}
        >
          <option value="">{t('console.exchange.choose_type')}</option>
          {named.map((type) => (
            <option key={type.externalId} value={type.externalId ?? ''}>
              {type.name}
            </option>
          ))}
        </SelectField>
        <Field
          label={t('console.exchange.quantity')}
          inputMode="numeric"
          error={err('quantity')}
          {...form.register('quantity', required)}
        />
        <Field
          label={t('console.exchange.price')}
          inputMode="decimal"
          helper={t('console.exchange.price_help')}
          error={err('price')}
          {...form.register('price', required)}
        />
      </div>
      {waits && <p className="muted">{t('console.payout.release_waits')}</p>}
      <ErrorBlock message={formError} />
      <FormFooter submit={t('console.exchange.release')} pending={release.isPending} disabled={waits} />
      {release.data && (
        <p role="status" className="muted">
          {t('console.exchange.released', { count: release.data.released, offered: release.data.offered })}
        </p>
      )}
    </form>
  );
}
