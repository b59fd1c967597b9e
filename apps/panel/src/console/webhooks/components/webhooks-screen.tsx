/**
 * Webhooks (issue 21, owners and staff): the organisation's endpoints (GET/POST/DELETE /v1/org/webhooks; the
 * signing secret shown once), one endpoint's delivery log, newest first, paged (GET …/deliveries), and redeliver
 * (POST …/deliveries/{deliveryId}/redeliver: the same webhook-id and body, due now).
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { webhooks } from '@tp/contract';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { FormFooter } from '../../form-footer';
import { QueryState } from '../../query-state';
import { ShownOnce } from '../../shown-once';
import { ErrorBlock, FieldError, useServerErrors } from '../../server-errors';
import { Pager, RowButton, TableHead, TableRegion, useCursorPages } from '../../table-region';
import { consoleTime } from '../../zoned-time';
import { goUp, navigate, type ConsoleRoute } from '../../routing';
import { useWebhooks, type WebhookItem } from '../api/webhooks.api';
import { useCreateWebhook, type NewWebhook } from '../api/create-webhook.api';
import { useDeleteWebhook } from '../api/delete-webhook.api';
import { useDeliveries } from '../api/deliveries.api';
import { useRedeliver } from '../api/redeliver.api';

const LIST: ConsoleRoute = { screen: 'webhooks' };

/** A delivery's time as the console's lists show it (the contract's formatter); a dash for none. */
const date = (iso: string | null) => (iso ? consoleTime(iso) : '—');

/** The webhooks screen; `endpoint` (from the URL, /console/webhooks/:endpoint/deliveries) opens its delivery log. */
export function WebhooksScreen({ endpoint }: { endpoint?: number }) {
  const { t } = useTranslation();
  const [secret, setSecret] = useState<string | null>(null);
  const list = useWebhooks();
  const form = useForm<NewWebhook>({
    defaultValues: { url: '', events: [...webhooks.WEBHOOK_EVENT_TYPES] },
  });
  const created = useServerErrors(form, {}, { 'api.org.webhook_url_not_allowed': 'url' });
  const create = useCreateWebhook({
    onMutate: () => created.setFormError(null),
    onError: created.show,
    onSuccess: (r) => {
      setSecret(r.secret);
      form.reset();
    },
  });
  const remove = useDeleteWebhook();
  const logOf = endpoint === undefined ? undefined : list.data?.find((w) => w.id === endpoint);
  if (logOf) return <DeliveryLog endpoint={logOf} onBack={() => goUp(LIST)} />;
  if (endpoint !== undefined && !list.data) return <QueryState query={list} />;
  return (
    <section className="stack">
      <h1>{t('console.webhooks.title')}</h1>
      <p className="muted">{t('console.webhooks.help')}</p>
      <form className="card stack" onSubmit={(e) => void form.handleSubmit((v) => create.mutate(v))(e)} noValidate>
        <Field
          label={t('console.webhooks.url')}
          type="url"
          placeholder="https://"
          error={form.formState.errors.url?.message}
          {...form.register('url', { required: t('console.required') })}
        />
        <fieldset className="checks">
          <legend>{t('console.webhooks.events')}</legend>
          {webhooks.WEBHOOK_EVENT_TYPES.map((e) => (
            <label key={e}>
              <input type="checkbox" value={e} {...form.register('events', { required: t('console.required') })} />{' '}
              <code>{e}</code>
            </label>
          ))}
          <FieldError message={form.formState.errors.events?.message} />
        </fieldset>
        <FormFooter submit={t('console.webhooks.add')} pending={create.isPending} />
      </form>
      <ErrorBlock message={created.formError} />
      {secret && <ShownOnce label={t('console.webhooks.secret')} value={secret} onDone={() => setSecret(null)} />}
      <TableRegion label={t('console.webhooks.title')} card>
        <table>
          <TableHead
            columns={[t('console.webhooks.url'), t('console.webhooks.events')]}
            action={t('console.webhooks.actions')}
          />
          <tbody>
            {list.data?.map((w) => (
              <tr key={w.id}>
                <td className="wrap">{w.url}</td>
                <td>{w.events.join(', ')}</td>
                <td className="row">
                  <RowButton
                    label={t('console.webhooks.log')}
                    name={w.url}
                    onClick={() => navigate({ screen: 'webhooks', endpoint: w.id })}
                  />
                  <RowButton
                    variant="ghost"
                    label={t('console.webhooks.delete')}
                    name={w.url}
                    loading={remove.isPending && remove.variables === w.id}
                    onClick={() => remove.mutate(w.id)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <QueryState query={list} empty={list.data?.length === 0} none={t('console.webhooks.none')} />
      </TableRegion>
    </section>
  );
}

function DeliveryLog({ endpoint, onBack }: { endpoint: WebhookItem; onBack: () => void }) {
  const { t } = useTranslation();
  const pages = useCursorPages<number>();
  const log = useDeliveries(endpoint.id, pages.cursor);
  const redeliver = useRedeliver(endpoint.id);
  return (
    <section className="stack">
      <div className="row">
        <h1 style={{ marginRight: 'auto' }}>{t('console.webhooks.log_title')}</h1>
        <Button variant="ghost" onClick={onBack}>
          {t('console.back')}
        </Button>
      </div>
      <p className="wrap">
        <code>{endpoint.url}</code>
      </p>
      <ErrorBlock error={redeliver.error} />
      {redeliver.isSuccess && <p role="status">{t('console.webhooks.redelivered')}</p>}
      <TableRegion label={t('console.webhooks.log_title')} card>
        <table>
          <TableHead
            columns={[
              t('console.webhooks.event'),
              t('console.webhooks.status'),
              t('console.webhooks.attempts'),
              t('console.webhooks.last'),
              t('console.webhooks.created'),
            ]}
            action={t('console.webhooks.redeliver')}
          />
          <tbody>
            {log.data?.items.map((d) => (
              <tr key={d.id}>
                <td>
                  <code>{d.eventType}</code>
                </td>
                <td>
                  <span className="badge">{t(`console.webhooks.state.${d.status}`)}</span>
                </td>
                <td>{d.attempts}</td>
                <td>{d.lastStatusCode ?? d.lastError ?? '—'}</td>
                <td>{date(d.createdAt)}</td>
                <td>
                  <RowButton
                    label={t('console.webhooks.redeliver')}
                    name={`${d.eventType} ${d.messageId}`}
                    loading={redeliver.isPending && redeliver.variables === d.id}
                    onClick={() => redeliver.mutate(d.id)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <QueryState query={log} empty={log.data?.items.length === 0} none={t('console.webhooks.log_none')} />
      </TableRegion>
      <Pager pages={pages} nextCursor={log.data?.nextCursor} />
    </section>
  );
}
