/**
 * Activity (issue 25, decision 032): the organisation's audit trail for owners (audit-log.api.ts): who (a member's
 * e-mail, an API key's prefix, the platform operator), what, on which resource, when (the browser's time zone, as
 * the other console screens show times, through the contract's formatter) and from which IP; newest first, paged
 * by cursor and filtered by action. An import's row folds out the tickets it issued or moved (issue 39); a member
 * who left by deleting their account is marked so.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS } from '@tp/contract';
import { QueryState } from '../../query-state';
import { SelectField } from '../../select-field';
import { Pager, TableHead, TableRegion, useCursorPages } from '../../table-region';
import { consoleTime } from '../../zoned-time';
import { useAuditLog } from '../api/audit-log.api';
import { actorText, detailText, resourceText } from './activity-text';
import { ImportedTickets } from './imported-tickets';

export function ActivityScreen() {
  const { t } = useTranslation();
  const [action, setAction] = useState('');
  const pages = useCursorPages<string>();
  const log = useAuditLog(action, pages.cursor);
  return (
    <section className="stack">
      <h1>{t('console.activity.title')}</h1>
      <p className="muted">{t('console.activity.help')}</p>
      <div className="row">
        <SelectField
          id="activity-action"
          label={t('console.activity.action_filter')}
          value={action}
          onChange={(e) => {
            setAction(e.target.value);
            pages.reset();
          }}
        >
          <option value="">{t('console.activity.any_action')}</option>
          {AUDIT_ACTIONS.map((a) => (
            <option key={a} value={a}>
              {t(`console.activity.action.${a}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <QueryState
        query={log}
        loading={t('console.activity.loading')}
        empty={log.data?.items.length === 0}
        none={t('console.activity.none')}
      />
      {log.data && log.data.items.length > 0 && (
        <TableRegion label={t('console.activity.title')} card>
          <table>
            <caption className="visually-hidden">{t('console.activity.title')}</caption>
            <TableHead
              columns={[
                t('console.activity.when'),
                t('console.activity.who'),
                t('console.activity.what'),
                t('console.activity.resource'),
                t('console.activity.ip'),
              ]}
            />
            <tbody>
              {log.data.items.map((e) => (
                <tr key={e.id}>
                  <td style={{ whiteSpace: 'nowrap' }}>
                    <time dateTime={e.at}>{consoleTime(e.at)}</time>
                  </td>
                  <td>{actorText(t, e.actor)}</td>
                  <td>
                    {t(`console.activity.action.${e.action}`)}
                    {e.detail.reason === 'account_deleted' && (
                      <span className="muted"> ({t('console.activity.reason.account_deleted')})</span>
                    )}
                    {detailText(t, e.detail, e.resourceType) && (
                      <div className="muted" data-testid="activity-detail">
                        {detailText(t, e.detail, e.resourceType)}
                      </div>
                    )}
                  </td>
                  <td>
                    {t(`console.activity.resource_type.${e.resourceType}`)}{' '}
                    {/* An import is named by its date, which is text, not an id. */}
                    {e.resourceType === 'import' ? (
                      <time dateTime={e.resourceId}>{resourceText(e)}</time>
                    ) : (
                      <code>{resourceText(e)}</code>
                    )}
                    {e.action === 'import.completed' && <ImportedTickets detail={e.detail} />}
                  </td>
                  <td>{e.ip ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <Pager pages={pages} nextCursor={log.data?.nextCursor} />
    </section>
  );
}
