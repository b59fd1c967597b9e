/**
 * A ticket's history in its drawer, oldest first: each change and when (the console's dates, through the
 * contract's formatter), who it went from and to on a transfer, and which door key and how on a check-in.
 */
import { useTranslation } from 'react-i18next';
import { consoleTime as when } from '../../zoned-time';
import type { TicketDetail } from '../api/ticket.api';

/** A person of the history as read: "Name (e-mail)", the e-mail alone, or a dash. */
const person = (p: { email: string; name: string | null } | null | undefined) =>
  p ? (p.name ? `${p.name} (${p.email})` : p.email) : '—';

export function TicketHistory({ history }: { history: TicketDetail['history'] }) {
  const { t } = useTranslation();
  return (
    <>
      <h3>{t('console.holders.history')}</h3>
      <ol className="history">
        {history.map((h, i) => (
          <li key={i}>
            <strong>{t(`console.history.${h.kind}`)}</strong> · {when(h.at)}
            {h.kind === 'transferred' && (
              <div className="muted">{t('console.history.from_to', { from: person(h.from), to: person(h.to) })}</div>
            )}
            {h.kind === 'checked_in' && (
              <div className="muted">
                {h.doorKey ?? t('console.history.platform_key')} ·{' '}
                {h.offline ? t('console.history.offline') : t('console.history.online')}
              </div>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
