/**
 * The ticket page's refund section (issue 46), shown when the event's refund policy lets the holder ask or a request
 * stands: "Ask for a refund" with the last moment to ask (in the event's time zone) and, in a dialog, an optional
 * reason for the organiser; a pending request's date and "Withdraw request"; a declined one with the organiser's
 * reason (and the ask again while the policy allows). The API's refusals (`api.refund.*`) show in the dialog; a
 * success is a toast. Its texts are the `refund` catalogue (lib/feature-catalogues.ts), loaded with this section.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { REFUND_REASON_MAX } from '@tp/contract/refunds';
import { errorKey } from '../../../lib/api-client';
import { loadCatalogue } from '../../../lib/feature-catalogues';
import { formatWhen } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { Button } from '../../../ui/button';
import { ConfirmModal } from '../../../ui/confirm-modal';
import { ReasonField } from '../../../ui/reason-field';
import { useRefundRequestChange } from '../api/refund-request.api';

type Change = 'ask' | 'withdraw';

/** This section once its texts (the `refund` catalogue) are in: what the ticket page's `lazy` loads. */
export const withTexts = () => loadCatalogue('refund').then(() => ({ default: RefundRequest }));

function RefundRequest({ ticket }: { ticket: MyTicket }) {
  const { t } = useTranslation();
  const [change, setChange] = useState<Change | null>(null);
  const refund = ticket.refund;
  if (!refund) return null;
  const request = refund.request;
  const when = (iso: string) => formatWhen(iso, ticket.eventTimeZone);
  return (
    <section className="stack-sm box refund-request" aria-labelledby="refund-title">
      <h2 id="refund-title" className="section-title">
        {t('refund.title')}
      </h2>
      {request?.status === 'pending' && (
        <>
          <p>{t('refund.requested_on', { date: when(request.createdAt) })}</p>
          <p className="ticket-card__meta">{t('refund.pending_help')}</p>
          <Button variant="ghost" onClick={() => setChange('withdraw')}>
            {t('refund.withdraw')}
          </Button>
        </>
      )}
      {request?.status === 'declined' && (
        <div>
          <strong>{t('refund.declined')}</strong>
          {request.declineReason && <p>{t('refund.declined_by', { reason: request.declineReason })}</p>}
        </div>
      )}
      {refund.requestable && request?.status !== 'pending' && (
        <>
          {refund.until && <p>{t('refund.until', { date: when(refund.until) })}</p>}
          <Button variant="secondary" onClick={() => setChange('ask')}>
            {t('refund.ask')}
          </Button>
        </>
      )}
      {change && <ChangeDialog userTicketId={ticket.userTicketId} change={change} onClose={() => setChange(null)} />}
    </section>
  );
}

/** "Ask for a refund?" with the optional reason, or "Withdraw your refund request?"; a refusal shows inside. */
function ChangeDialog(props: { userTicketId: number; change: Change; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const run = useRefundRequestChange(props.userTicketId, props.change);
  const onConfirm = async () => {
    try {
      await run.mutateAsync(reason.trim() || undefined);
      toast.success(t(`refund.${props.change}_done`));
      props.onClose();
    } catch (err) {
      console.error(`refund ${props.change} failed`, err);
    }
  };
  return (
    <ConfirmModal
      title={t(`refund.${props.change}_title`)}
      keepLabel={t(`refund.${props.change}_keep`)}
      confirmLabel={t(`refund.${props.change}`)}
      confirmVariant={props.change === 'ask' ? 'primary' : 'danger'}
      pending={run.isPending}
      onConfirm={() => void onConfirm()}
      onClose={props.onClose}
    >
      <p>{t(`refund.${props.change}_text`)}</p>
      {props.change === 'ask' && (
        <ReasonField
          label={t('refund.reason')}
          helper={t('refund.reason_help', { max: REFUND_REASON_MAX })}
          maxLength={REFUND_REASON_MAX}
          value={reason}
          onChange={setReason}
          className="field__input"
        />
      )}
      {run.error && (
        <p className="field__error" role="alert">
          {t(errorKey(run.error))}
        </p>
      )}
    </ConfirmModal>
  );
}
