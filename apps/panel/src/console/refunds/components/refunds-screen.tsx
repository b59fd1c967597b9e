/**
 * Refund requests (issue 46): the holders' requests under the events' refund policies, by status (Pending, Approved,
 * Declined, Withdrawn), a page at a time. A pending one is approved (the ticket stops admitting; the organiser's
 * optional reference of the refund made in their shop) or declined (a reason, which the holder sees), each in the
 * console's confirm box with the API's refusal inside. The status shown is the URL's (/console/refunds/:status,
 * routing.ts), so a reload or a shared link opens the same list and Back returns to it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REFUND_REASON_MAX, REFUND_REFERENCE_MAX } from '@tp/contract/refunds';
import { Button } from '../../../ui/button';
import { Field } from '../../../ui/field';
import { ConfirmBox } from '../../confirm-box';
import { QueryState } from '../../query-state';
import { navigate, type DecidedStatus } from '../../routing';
import { Pager, RowButton, TableHead, TableRegion, useCursorPages } from '../../table-region';
import { consoleTime } from '../../zoned-time';
import { useApproveRefund } from '../api/approve-refund.api';
import { useDeclineRefund } from '../api/decline-refund.api';
import { useRefundRequests, type RefundRequestItem, type RefundRequestStatus } from '../api/refund-requests.api';

const STATUSES: RefundRequestStatus[] = ['pending', 'approved', 'declined', 'withdrawn'];

/** The Refunds screen; `status` (from the URL) is the list shown, pending when none. */
export function RefundsScreen({ status: decided }: { status?: DecidedStatus }) {
  const { t } = useTranslation();
  const status: RefundRequestStatus = decided ?? 'pending';
  const pages = useCursorPages<string>();
  const list = useRefundRequests(status, pages.cursor);
  const [deciding, setDeciding] = useState<{ item: RefundRequestItem; approve: boolean } | null>(null);
  // Another status (a button, Back, a link) starts at its first page with no decision open.
  const [shown, setShown] = useState<RefundRequestStatus>(status);
  if (shown !== status) {
    setShown(status);
    pages.reset();
    setDeciding(null);
  }
  const items = list.data?.items ?? [];
  const pending = status === 'pending';
  const show = (s: RefundRequestStatus) =>
    navigate({ screen: 'refunds', ...(s === 'pending' ? {} : { status: s }) }, { replace: true });
  return (
    <section className="stack">
      <h1>{t('console.refunds.title')}</h1>
      <p className="muted">{t('console.refunds.intro')}</p>
      <div className="row" role="group" aria-label={t('console.refunds.status')}>
        {STATUSES.map((s) => (
          <Button
            key={s}
            variant={s === status ? 'primary' : 'ghost'}
            className="btn--small"
            aria-pressed={s === status}
            onClick={() => show(s)}
          >
            {t(`console.refunds.statuses.${s}`)}
          </Button>
        ))}
      </div>
      <TableRegion label={t('console.refunds.title')} card>
        <table>
          <TableHead
            columns={[
              t('console.refunds.event'),
              t('console.refunds.ticket'),
              t('console.refunds.holder'),
              t('console.refunds.reason'),
              t('console.refunds.asked'),
              ...(pending ? [] : [t('console.refunds.decided'), t('console.refunds.outcome')]),
            ]}
            action={pending ? t('console.refunds.decide') : undefined}
          />
          <tbody>
            {items.map((r) => (
              <tr key={r.id}>
                <td>{r.eventName}</td>
                <td>
                  {r.ticketTypeName}
                  {r.ticketExternalId && <span className="muted"> · {r.ticketExternalId}</span>}
                </td>
                <td>
                  {r.holderName ?? r.holderEmail}
                  {r.holderName && <div className="muted">{r.holderEmail}</div>}
                </td>
                <td>{r.reason ?? '—'}</td>
                <td>{consoleTime(r.createdAt)}</td>
                {!pending && (
                  <>
                    <td>{r.decidedAt ? consoleTime(r.decidedAt) : '—'}</td>
                    <td>{r.reference ?? r.declineReason ?? '—'}</td>
                  </>
                )}
                {pending && (
                  <td>
                    <div className="row">
                      <RowButton
                        label={t('console.refunds.approve')}
                        name={r.holderEmail}
                        onClick={() => setDeciding({ item: r, approve: true })}
                      />
                      <RowButton
                        label={t('console.refunds.decline')}
                        name={r.holderEmail}
                        variant="ghost"
                        onClick={() => setDeciding({ item: r, approve: false })}
                      />
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
        <QueryState
          query={list}
          empty={items.length === 0}
          none={t(`console.refunds.none.${status}`)}
          loading={t('console.loading')}
        />
      </TableRegion>
      <Pager pages={pages} nextCursor={list.data?.nextCursor} />
      {deciding && (
        <Decision
          key={`${deciding.item.id}-${deciding.approve}`}
          item={deciding.item}
          approve={deciding.approve}
          onDone={() => setDeciding(null)}
        />
      )}
    </section>
  );
}

/** Approve (with an optional reference) or decline (with the reason, required) one pending request. */
function Decision({ item, approve, onDone }: { item: RefundRequestItem; approve: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [missing, setMissing] = useState(false);
  const approval = useApproveRefund({ onSuccess: onDone });
  const decline = useDeclineRefund({ onSuccess: onDone });
  const run = approve ? approval : decline;
  const who = { ticket: item.ticketTypeName, holder: item.holderName ?? item.holderEmail, event: item.eventName };
  const onYes = () => {
    const value = text.trim();
    if (approve) approval.mutate({ id: item.id, reference: value || undefined });
    else if (!value) setMissing(true);
    else decline.mutate({ id: item.id, reason: value });
  };
  return (
    <ConfirmBox
      id="refund-decision-q"
      question={t(approve ? 'console.refunds.approve_confirm' : 'console.refunds.decline_confirm', who)}
      yes={t(approve ? 'console.refunds.approve' : 'console.refunds.decline')}
      pending={run.isPending}
      error={run.error}
      onYes={onYes}
      onCancel={onDone}
    >
      <Field
        label={t(approve ? 'console.refunds.reference' : 'console.refunds.decline_reason')}
        maxLength={approve ? REFUND_REFERENCE_MAX : REFUND_REASON_MAX}
        value={text}
        error={missing ? t('console.required') : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setMissing(false);
        }}
      />
    </ConfirmBox>
  );
}
