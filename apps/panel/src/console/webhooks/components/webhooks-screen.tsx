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
import { errorText } from '../../errors';
import { QueryState } from '../../query-state';
import { ShownOnce } from '../../shown-once';
import { FieldError, useServerErrors } from '../../server-errors';
import { Pager, TableRegion, useCursorPages } from '../../table-region';
import { goUp, navigate, type ConsoleRoute } from '../../routing';
import { useWebhooks, type WebhookItem } from '../api/webhooks.api';
import { useCreateWebhook, type NewWebhook } from '../api/create-webhook.api';
import { useDeleteWebhook } from '../api/delete-webhook.api';
import { useDeliveries } from '../api/deliveries.api';
import { useRedeliver } from '../api/redeliver.api';

const LIST: ConsoleRoute = { screen: 'webhooks' };

const date = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(document.documentElement.lang, { dateStyle: 'short', timeStyle: 'medium' }) : '—';

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
        <div className="row">
          <Button type="submit" loading={create.isPending}>
            {t('console.webhooks.add')}
          </Button>
        </div>
      </form>
      {created.formError && (
        <p className="error" role="alert">
          {created.formError}
        </p>
      )}
      {secret && <ShownOnce label={t('console.webhooks.secret')} value={secret} onDone={() => setSecret(null)} />}
      <TableRegion label={t('console.webhooks.title')} card>
        <table>
          <thead>
            <tr>
              <th>{t('console.webhooks.url')}</th>
              <th>{t('console.webhooks.events')}</th>
              <th>
                <span className="visually-hidden">{t('console.webhooks.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((w) => (
              <tr key={w.id}>
                <td className="wrap">{w.url}</td>
                <td>{w.events.join(', ')}</td>
                <td className="row">
                  <Button
                    variant="secondary"
                    className="btn--small"
                    onClick={() => navigate({ screen: 'webhooks', endpoint: w.id })}
                    aria-label={`${t('console.webhooks.log')}: ${w.url}`}
                  >
                    {t('console.webhooks.log')}
                  </Button>
                  <Button
                    variant="ghost"
                    className="btn--small"
                    loading={remove.isPending && remove.variables === w.id}
                    onClick={() => remove.mutate(w.id)}
                    aria-label={`${t('console.webhooks.delete')}: ${w.url}`}
                  >
                    {t('console.webhooks.delete')}
                  </Button>
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
      {redeliver.isError && (
        <p className="error" role="alert">
          {errorText(t, redeliver.error)}
        </p>
      )}
      {redeliver.isSuccess && <p role="status">{t('console.webhooks.redelivered')}</p>}
      <TableRegion label={t('console.webhooks.log_title')} card>
        <table>
          <thead>
            <tr>
              <th>{t('console.webhooks.event')}</th>
              <th>{t('console.webhooks.status')}</th>
              <th>{t('console.webhooks.attempts')}</th>
              <th>{t('console.webhooks.last')}</th>
              <th>{t('console.webhooks.created')}</th>
              <th>
                <span className="visually-hidden">{t('console.webhooks.redeliver')}</span>
              </th>
            </tr>
          </thead>
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
                  <Button
                    variant="secondary"
                    className="btn--small"
                    loading={redeliver.isPending && redeliver.variables === d.id}
                    onClick={() => redeliver.mutate(d.id)}
                    aria-label={`${t('console.webhooks.redeliver')}: ${d.eventType} ${d.messageId}`}
                  >
                    {t('console.webhooks.redeliver')}
                  </Button>
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
