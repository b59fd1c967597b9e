/**
 * The dashboard's conflicts: what offline doors admitted that the server refused when they synced, with when each
 * was scanned and synced (in the event's `timeZone`, through the contract's formatter).
 */
import { useTranslation } from 'react-i18next';
import type { organisations } from '@tp/contract';
import { TableHead, TableRegion } from '../../table-region';
import { consoleTime } from '../../zoned-time';

export function Conflicts({ data, timeZone }: { data: organisations.CheckInsBody | undefined; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <section className="stack" aria-labelledby="conflicts-title">
      <h2 id="conflicts-title">{t('console.dashboard.conflicts_title')}</h2>
      <p className="muted">{t('console.dashboard.conflicts_help')}</p>
      {data && data.conflicts.length === 0 && <p>{t('console.dashboard.conflicts_none')}</p>}
      {data && data.conflicts.length > 0 && (
        <TableRegion label={t('console.dashboard.conflicts_title')} card>
          <table>
            <TableHead
              columns={[
                t('console.holders.ticket'),
                t('console.dashboard.reason'),
                t('console.dashboard.scanned_at'),
                t('console.dashboard.synced_at'),
              ]}
            />
            <tbody>
              {data.conflicts.map((c, i) => (
                <tr key={i}>
                  <td>{c.ticketExternalId ?? '—'}</td>
                  <td>{t(`console.dashboard.conflict.${c.reason}`)}</td>
                  <td data-label={t('console.dashboard.scanned_at')}>{consoleTime(c.scannedAt, timeZone)}</td>
                  <td data-label={t('console.dashboard.synced_at')}>{consoleTime(c.syncedAt, timeZone)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}
