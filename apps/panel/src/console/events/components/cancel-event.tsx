/**
 * Cancelling an event from the console (issue 46, decision 045). `CancelEvent`: the "Cancel event" action, which opens
 * the confirm box: the organiser's words to the holders (optional, at most 1000 characters), then "Check what it
 * touches" (the dry run: its counts in words), then "Cancel the event" (the cancel; its answer is shown); an event that
 * has ended has no action, a line says it can no longer be cancelled. `Cancelled`:
 * what a cancelled event's view says instead of its actions: when it was cancelled and the words given.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatAt, langOf } from '@tp/contract/format';
import { Button } from '../../../ui/button';
import { ReasonField } from '../../../ui/reason-field';
import { ConfirmBox } from '../../confirm-box';
import type { EventItem } from '../../events-list.api';
import { useCancelEvent, type CancelAnswer } from '../api/cancel-event.api';

/** The longest reason the API takes (contract `eventCancelRequest.reason`), in characters. */
const REASON_MAX = 1000;

/** The counts of a cancel's answer, in the order they are said (catalogue `console.cancel_event.count.<key>`). */
const COUNTS = ['tickets', 'holders', 'listings', 'openOrders', 'exchangeEntries', 'walletPasses'] as const;

/** What a cancel touches (or touched: `done`), one sentence per count. */
function Counts({ answer, done }: { answer: CancelAnswer; done: boolean }) {
  const { t } = useTranslation();
  return (
    <ul data-testid={done ? 'cancel-result' : 'cancel-counts'}>
      {COUNTS.map((k) => (
        <li key={k}>{t(`console.cancel_event.${done ? 'done' : 'will'}.${k}`, { count: answer[k] })}</li>
      ))}
    </ul>
  );
}

export function CancelEvent({ event }: { event: EventItem & { externalId: string } }) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [check, setCheck] = useState<CancelAnswer | null>(null);
  const [result, setResult] = useState<CancelAnswer | null>(null);
  const cancel = useCancelEvent(event.externalId);
  // When the view opened (ms): whether the event has ended is judged once, not on every render.
  const [openedAt] = useState(Date.now);
  if (result)
    return (
      <div className="card stack" role="status">
        <p>{t('console.cancel_event.cancelled_now')}</p>
        <Counts answer={result} done />
      </div>
    );
  if (event.cancelledAt) return null;
  // The show took place: the API refuses the cancel (`api.org.event_ended`), so no action is offered.
  if (Date.parse(event.endsAt) <= openedAt)
    return (
      <p className="muted" data-testid="cancel-ended">
        {t('console.cancel_event.ended')}
      </p>
    );
  if (!open)
    return (
      <div className="row">
        <Button variant="danger" onClick={() => setOpen(true)}>
          {t('console.cancel_event.action')}
        </Button>
      </div>
    );
  const close = () => {
    setOpen(false);
    setCheck(null);
    cancel.reset();
  };
  const run = () =>
    cancel.mutate(
      { reason, dryRun: check === null },
      { onSuccess: (answer) => (answer.dryRun ? setCheck(answer) : setResult(answer)) },
    );
  return (
    <ConfirmBox
      id={`${id}-q`}
      question={t('console.cancel_event.question', { name: event.name })}
      yes={t(check ? 'console.cancel_event.yes' : 'console.cancel_event.check')}
      danger={check !== null}
      pending={cancel.isPending}
      error={cancel.error}
      onYes={run}
      onCancel={close}
    >
      <ReasonField
        label={t('console.cancel_event.reason')}
        helper={t('console.cancel_event.reason_help', { max: REASON_MAX })}
        maxLength={REASON_MAX}
        value={reason}
        onChange={setReason}
        className="textarea"
      />
      {check && <Counts answer={check} done={false} />}
    </ConfirmBox>
  );
}

/** A cancelled event's state: "Cancelled on <date>" (in the event's zone) and the organiser's words, if any. */
export function Cancelled({ event }: { event: EventItem }) {
  const { t } = useTranslation();
  if (!event.cancelledAt) return null;
  const lang = langOf(document.documentElement.lang);
  return (
    <div className="card stack" data-testid="event-cancelled">
      <p>
        <span className="badge badge--warning">{t('console.cancel_event.badge')}</span>{' '}
        {t('console.cancel_event.cancelled_on', { date: formatAt(event.cancelledAt, event.timeZone, lang) })}
      </p>
      <p className="muted">
        {event.cancelReason
          ? t('console.cancel_event.reason_given', { reason: event.cancelReason })
          : t('console.cancel_event.no_reason')}
      </p>
      <p className="muted">{t('console.cancel_event.final')}</p>
    </div>
  );
}
