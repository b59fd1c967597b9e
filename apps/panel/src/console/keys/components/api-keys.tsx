/**
 * The API keys (issue 21; owners): a button for a new key, shown once, and the live keys in a table with when each
 * was made and expires, and its revoke button.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFooter } from '../../form-footer';
import { QueryState } from '../../query-state';
import { ErrorBlock } from '../../server-errors';
import { ShownOnce } from '../../shown-once';
import { TableHead, TableRegion } from '../../table-region';
import { consoleTime as date } from '../../zoned-time';
import { useApiKeys } from '../api/api-keys.api';
import { useCreateApiKey } from '../api/create-api-key.api';
import { useRevokeApiKey } from '../api/revoke-api-key.api';
import { RevokeButton } from './revoke-button';

export function ApiKeys() {
  const { t } = useTranslation();
  const [shown, setShown] = useState<string | null>(null);
  const list = useApiKeys();
  const create = useCreateApiKey({ onSuccess: (r) => setShown(r.apiKey) });
  const revoke = useRevokeApiKey();
  const live = list.data?.filter((k) => !k.revokedAt);
  return (
    <section className="stack" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">{t('console.keys.api_title')}</h2>
      <p className="muted">{t('console.keys.api_help')}</p>
      <FormFooter submit={t('console.keys.api_create')} pending={create.isPending} onSubmit={() => create.mutate()} />
      <ErrorBlock error={create.error ?? revoke.error} />
      {shown && <ShownOnce label={t('console.keys.api_new')} value={shown} onDone={() => setShown(null)} />}
      <TableRegion label={t('console.keys.api_title')} card>
        <table>
          <TableHead
            columns={[t('console.keys.prefix'), t('console.keys.created'), t('console.keys.expires')]}
            action={t('console.keys.revoke')}
          />
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
