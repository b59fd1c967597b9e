/** An import's entry of the audit trail, folded out: the tickets it issued or moved (issue 39). */
import { useTranslation } from 'react-i18next';
import type { AuditEntry } from '@tp/contract';

/** One ticket an import's entry names (issue 39): account ids of the holder, and of the previous one when moved. */
interface ImportedTicket {
  externalId: string;
  change: 'issued' | 'reissued';
  holderId: number;
  fromHolderId?: number | null;
}
const isImportedTicket = (x: unknown): x is ImportedTicket =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as ImportedTicket).externalId === 'string' &&
  ((x as ImportedTicket).change === 'issued' || (x as ImportedTicket).change === 'reissued');

/**
 * What an import issued or moved, folded under a count: each ticket named in the entry (at most
 * `AUDIT_IMPORT_TICKETS_NAMED`) with the holder's account, and how many more it did. Nothing for entries written
 * before imports named their tickets.
 */
export function ImportedTickets({ detail }: { detail: AuditEntry['detail'] }) {
  const { t } = useTranslation();
  const tickets = Array.isArray(detail.tickets) ? detail.tickets.filter(isImportedTicket) : [];
  const more = typeof detail.ticketsNotNamed === 'number' ? detail.ticketsNotNamed : 0;
  if (tickets.length === 0) return null;
  return (
    <details>
      <summary>{t('console.activity.import_tickets', { count: tickets.length + more })}</summary>
      <ul className="activity-tickets">
        {tickets.map((x) => (
          <li key={x.externalId}>
            {x.change === 'reissued'
              ? t('console.activity.ticket_reissued', {
                  ticket: x.externalId,
                  from: x.fromHolderId ?? '—',
                  holder: x.holderId,
                })
              : t('console.activity.ticket_issued', { ticket: x.externalId, holder: x.holderId })}
          </li>
        ))}
        {more > 0 && <li>{t('console.activity.tickets_not_named', { count: more })}</li>}
      </ul>
    </details>
  );
}
