/**
 * Keys (issue 21): door keys for the door scanners (owners and door staff: GET/POST/DELETE /v1/org/door-keys) and,
 * for owners, API keys for machines (GET/POST/DELETE /v1/org/api-keys). A new key is shown once with a copy
 * button (a new door key also with its door set-up link and QR, door-setup.tsx); revoking asks first and takes
 * effect at the key's next request.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { doorKeys, organisations } from '@tp/contract';
import type * as z from 'zod';
import { Button } from '../ui/button';
import { Field } from '../ui/field';
import { org } from './api';
import { consoleKeys } from './console-query-keys';
import { errorText } from './errors';
import { QueryState } from './query-state';
import { ShownOnce } from './shown-once';
import { useServerErrors } from './server-errors';
import { DoorSetup } from './door-setup';
import { consoleTime as date } from './zoned-time';
import { TableRegion } from './table-region';

type ApiKeyItem = z.infer<typeof organisations.apiKeyItem>;
type NewApiKey = z.infer<typeof organisations.createApiKeyResponse>;

export function KeysScreen({ owner }: { owner: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="stack">
      <h1>{t('console.keys.title')}</h1>
      <DoorKeys />
      {owner && <ApiKeys />}
      {!owner && <p className="muted">{t('console.door_only')}</p>}
    </section>
  );
}

/** A revoke button that asks first. */
function RevokeButton({ name, onRevoke, pending }: { name: string; onRevoke: () => void; pending: boolean }) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <Button
        variant="secondary"
        className="btn--small"
        onClick={() => setAsking(true)}
        aria-label={`${t('console.keys.revoke')}: ${name}`}
      >
        {t('console.keys.revoke')}
      </Button>
    );
  return (
    <span className="row" role="group" aria-label={t('console.keys.revoke_confirm', { name })}>
      <Button variant="danger" className="btn--small" loading={pending} onClick={onRevoke}>
        {t('console.keys.revoke_yes')}
      </Button>
      <Button variant="ghost" className="btn--small" onClick={() => setAsking(false)}>
        {t('console.cancel')}
      </Button>
    </span>
  );
}

function DoorKeys() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [shown, setShown] = useState<string | null>(null);
  const list = useQuery({
    queryKey: consoleKeys.doorKeys,
    queryFn: (): Promise<doorKeys.DoorKeyItem[]> => org.GET('/v1/org/door-keys'),
  });
  const form = useForm<{ name: string; events: string }>({ defaultValues: { name: '', events: '' } });
  const created = useServerErrors(form, { eventExternalIds: 'events' }, { 'api.org.event_not_found': 'events' });
  const create = useMutation({
    onMutate: () => created.setFormError(null),
    onError: created.show,
    mutationFn: (v: { name: string; events: string }) => {
      const eventExternalIds = v.events
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return org.POST('/v1/org/door-keys', {
        body: { name: v.name, ...(eventExternalIds.length ? { eventExternalIds } : {}) },
      });
    },
    onSuccess: async (r) => {
      setShown(r.key);
      form.reset();
      await client.invalidateQueries({ queryKey: consoleKeys.doorKeys });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => org.DELETE('/v1/org/door-keys/{id}', { params: { path: { id } } }),
    onSuccess: () => client.invalidateQueries({ queryKey: consoleKeys.doorKeys }),
  });
  return (
    <section className="stack" aria-labelledby="door-keys-title">
      <h2 id="door-keys-title">{t('console.keys.door_title')}</h2>
      <p className="muted">{t('console.keys.door_help')}</p>
      <form className="card row" onSubmit={(e) => void form.handleSubmit((v) => create.mutate(v))(e)} noValidate>
        <Field
          label={t('console.keys.door_name')}
          error={form.formState.errors.name?.message}
          {...form.register('name', { required: t('console.required') })}
        />
        <Field
          label={t('console.keys.door_events')}
          error={form.formState.errors.events?.message}
          {...form.register('events')}
        />
        <Button type="submit" loading={create.isPending}>
          {t('console.keys.door_create')}
        </Button>
      </form>
      {created.formError && (
        <p className="error" role="alert">
          {created.formError}
        </p>
      )}
      {shown && <ShownOnce label={t('console.keys.door_new')} value={shown} onDone={() => setShown(null)} />}
      {shown && <DoorSetup doorKey={shown} />}
      {revoke.isError && (
        <p className="error" role="alert">
          {errorText(t, revoke.error)}
        </p>
      )}
      <TableRegion label={t('console.keys.door_title')} card>
        <table>
          <thead>
            <tr>
              <th>{t('console.keys.name')}</th>
              <th>{t('console.keys.prefix')}</th>
              <th>{t('console.keys.events')}</th>
              <th>{t('console.keys.created')}</th>
              <th>
                <span className="visually-hidden">{t('console.keys.revoke')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data?.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}</code>
                </td>
                <td>{k.eventExternalIds?.join(', ') ?? t('console.keys.all_events')}</td>
                <td data-label={t('console.keys.created')}>{date(k.createdAt)}</td>
                <td>
                  <RevokeButton name={k.name} pending={revoke.isPending} onRevoke={() => revoke.mutate(k.id)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <QueryState query={list} empty={list.data?.length === 0} none={t('console.keys.none')} />
      </TableRegion>
    </section>
  );
}

function ApiKeys() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [shown, setShown] = useState<string | null>(null);
  const list = useQuery({
    queryKey: consoleKeys.apiKeys,
    queryFn: (): Promise<ApiKeyItem[]> => org.GET('/v1/org/api-keys'),
  });
  const create = useMutation({
    mutationFn: (): Promise<NewApiKey> => org.POST('/v1/org/api-keys'),
    onSuccess: async (r) => {
      setShown(r.apiKey);
      await client.invalidateQueries({ queryKey: consoleKeys.apiKeys });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: number) => org.DELETE('/v1/org/api-keys/{id}', { params: { path: { id } } }),
    onSuccess: () => client.invalidateQueries({ queryKey: consoleKeys.apiKeys }),
  });
  const live = list.data?.filter((k) => !k.revokedAt);
  return (
    <section className="stack" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">{t('console.keys.api_title')}</h2>
      <p className="muted">{t('console.keys.api_help')}</p>
      <div className="row">
        <Button onClick={() => create.mutate()} loading={create.isPending}>
          {t('console.keys.api_create')}
        </Button>
      </div>
      {(create.isError || revoke.isError) && (
        <p className="error" role="alert">
          {errorText(t, create.error ?? revoke.error)}
        </p>
      )}
      {shown && <ShownOnce label={t('console.keys.api_new')} value={shown} onDone={() => setShown(null)} />}
      <TableRegion label={t('console.keys.api_title')} card>
        <table>
          <thead>
            <tr>
              <th>{t('console.keys.prefix')}</th>
              <th>{t('console.keys.created')}</th>
              <th>{t('console.keys.expires')}</th>
              <th>
                <span className="visually-hidden">{t('console.keys.revoke')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {live?.map((k) => (
              <tr key={k.id}>
                <td>
                  <code>{k.prefix}</code>
                </td>
                <td data-label={t('console.keys.created')}>{date(k.createdAt)}</td>
                <td data-label={t('console.keys.expires')}>{k.expiresAt ? date(k.expiresAt) : '—'}</td>
                <td>
                  <RevokeButton name={k.prefix} pending={revoke.isPending} onRevoke={() => revoke.mutate(k.id)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <QueryState query={list} empty={live?.length === 0} none={t('console.keys.none')} />
      </TableRegion>
    </section>
  );
}
