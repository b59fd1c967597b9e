/**
 * A ticket's drawer (issue 21): its status, holder and number, a failing or bounced holder e-mail, its history
 * (ticket-history.tsx), re-send of the ticket e-mail and revoke with a confirm. Focus moves into it and back to what
 * opened it; Escape closes it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../ui/button';
import { ConfirmBox } from '../../confirm-box';
import { Dialog } from '../../dialog';
import { emailStatusText } from '../../errors';
import { QueryState } from '../../query-state';
import { ErrorBlock } from '../../server-errors';
import { useResendTicket } from '../api/resend-ticket.api';
import { useRevokeTicket } from '../api/revoke-ticket.api';
import { useTicket } from '../api/ticket.api';
import { TicketHistory } from './ticket-history';

/** A ticket that no longer admits: revoked, or its payment went back (issue 46); nothing more can be done to it. */
const voided = (status: string) => status === 'revoked' || status === 'refunded';

export function TicketDrawer({ externalId, onClose }: { externalId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const ticket = useTicket(externalId);
  const resend = useResendTicket(externalId);
  const revoke = useRevokeTicket(externalId, { onSuccess: () => setConfirming(false) });
  const tk = ticket.data;
  return (
    <Dialog kind="drawer" labelledBy="drawer-title" onClose={onClose}>
      <div className="row">
        <h2 id="drawer-title" style={{ marginRight: 'auto' }}>
          {t('console.holders.ticket')} {externalId}
        </h2>
        <Button variant="ghost" className="btn--small" onClick={onClose}>
          {t('console.close')}
        </Button>
      </div>
      <QueryState query={ticket} />
      {tk && (
        <>
          <p>
            <span className="badge">{t(`console.status.${tk.status}`)}</span> · {tk.holder?.email ?? '—'}
          </p>
          <p data-testid="ticket-number">{t('console.holders.number', { number: `#${tk.number}` })}</p>
          {(tk.holder?.emailStatus === 'bounced' || tk.holder?.emailStatus === 'failing') && (
            <p className="error" data-testid="email-status">
              {emailStatusText(t, tk.holder.emailStatus, tk.holder.emailStatusDetail)}
            </p>
          )}
          <TicketHistory history={tk.history} />
          {!voided(tk.status) && tk.holder && !tk.eventCancelled && (
            <div className="stack">
              <div className="row">
                <Button variant="secondary" loading={resend.isPending} onClick={() => resend.mutate()}>
                  {t('console.holders.resend')}
                </Button>
              </div>
              {resend.isSuccess && <p role="status">{t('console.holders.resent', { email: resend.data.email })}</p>}
              <ErrorBlock error={resend.error} />
            </div>
          )}
          {!voided(tk.status) &&
            (confirming ? (
              <ConfirmBox
                id="revoke-q"
                question={t('console.holders.revoke_confirm', { id: externalId })}
                yes={t('console.holders.revoke_yes')}
                pending={revoke.isPending}
                error={revoke.error}
                onYes={() => revoke.mutate()}
                onCancel={() => setConfirming(false)}
              />
            ) : (
              <Button variant="danger" onClick={() => setConfirming(true)}>
                {t('console.holders.revoke')}
              </Button>
            ))}
        </>
      )}
    </Dialog>
  );
}
