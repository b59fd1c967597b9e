/**
 * The Holders screen's table: each ticket's id and number, holder (a bounced e-mail marked), event and status, and
 * the button that opens its drawer; the query's loading, error and empty states under it.
 */
import { useTranslation } from 'react-i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Page } from '../../api';
import { QueryState } from '../../query-state';
import { RowButton, TableHead, TableRegion } from '../../table-region';
import type { TicketItem } from '../api/tickets.api';

export function TicketsTable({
  tickets,
  onOpen,
}: {
  tickets: UseQueryResult<Page<TicketItem>>;
  onOpen: (externalId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <TableRegion label={t('console.holders.title')} card>
      <table>
        <caption className="visually-hidden">{t('console.holders.title')}</caption>
        <TableHead
          columns={[
            t('console.holders.ticket'),
            t('console.holders.holder'),
            t('console.holders.event'),
            t('console.holders.status'),
          ]}
          action={t('console.holders.open')}
        />
        <tbody>
          {tickets.data?.items.map((tk) => (
            <tr key={tk.externalId}>
              <td>
                {tk.externalId} <span className="muted">· #{tk.number}</span>
              </td>
              <td>
                {tk.holder ? (tk.holder.name ? `${tk.holder.name} <${tk.holder.email}>` : tk.holder.email) : '—'}
                {tk.holder?.emailStatus === 'bounced' && (
                  <>
                    {' '}
                    <span className="badge badge--warning">{t('console.holders.email_bounced_badge')}</span>
                  </>
                )}
              </td>
              <td>{tk.eventExternalId}</td>
              <td>
                <span className="badge">{t(`console.status.${tk.status}`)}</span>
              </td>
              <td>
                <RowButton
                  label={t('console.holders.open')}
                  name={String(tk.externalId)}
                  onClick={() => tk.externalId !== null && onOpen(tk.externalId)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <QueryState query={tickets} empty={tickets.data?.items.length === 0} none={t('console.holders.none')} />
    </TableRegion>
  );
}
