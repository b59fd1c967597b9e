/**
 * TICKET (spec section 2 Ticket page): back, event image and details, the event-access item, the
 * description clamped to 3 lines with read more, and the benefit list (purchasedAmount > 0) whose
 * items open a detail modal (with Unlock for unlockable digital benefits); no benefit: an empty state with
 * the organiser's site. The actions: Gift, and a menu with Swap and Resell (see ticket-actions.tsx). Without
 * an id it redirects to MY_TICKET; a ticket not found offers the way back to the list (issue 13). Under the date
 * and place, "Add to calendar": an .ics file and a Google Calendar link (issue 23, add-to-calendar.tsx), and the
 * wallet badges when the operator configured a wallet (issue 22, ui/wallet-buttons.tsx, loaded lazily). A cancelled
 * event's ticket opens with a notice: it no longer admits, and the organiser's words (issue 46); where the event's
 * refund policy allows or a request stands, the refund section (refund-request.tsx, loaded lazily; issue 46).
 */
import { lazy, Suspense, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureKey } from '../../../lib/api-client';
import type { Benefit, MyTicket } from '@tp/contract';
import { usePanelConfig } from '../../../lib/queries';
import { sanitizeHtml } from '../../../lib/sanitize';
import { assetUrl, formatWhen } from '../../../lib/format';
import { navigate, useRoute } from '../../../lib/use-route';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { EmptyState } from '../../../ui/empty-state';
import { Button } from '../../../ui/button';
import { BackIcon } from '../../../ui/icons';
import { useTicket } from '../../../lib/ticket-queries';
import { BenefitModal, type BenefitDetail } from './benefit-modal';
import { BenefitUnlock } from './benefit-unlock';
import { TicketActions } from './ticket-actions';
import { useExchangeReturn } from '../api/exchange-return.api';
import { TicketDetails } from './ticket-details';
import { BenefitsSection, EventAccessSection, accessCancelled, benefitUsed } from './ticket-benefits';
import '../tickets.css';

/** The exchange queue section (issue 45), loaded only for a ticket its event's queue takes or holds. */
const ExchangeReturn = lazy(() => import('./exchange-return'));

/** Asks whether the ticket's event queue takes it (or holds it) and only then loads and shows the section. */
function ExchangeReturnSlot(props: { userTicketId: number }) {
  const s = useExchangeReturn(props.userTicketId).data;
  if (!s || (!s.returnable && s.status === null)) return null;
  return (
    <Suspense fallback={null}>
      <ExchangeReturn userTicketId={props.userTicketId} />
    </Suspense>
  );
}

/** The refund section (issue 46) and its texts, loaded only for a ticket that can be or was asked to be refunded. */
const RefundRequest = lazy(() => import('./refund-request').then((m) => m.withTexts()));

function Clamp({ html }: { html: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);
  const [overflows, setOverflows] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el) setOverflows(el.scrollHeight > el.clientHeight + 1);
  }, [html]);
  return (
    <div>
      <div
        ref={ref}
        className={`rich-text ${open ? '' : 'clamp-3'}`}
        dangerouslySetInnerHTML={{ __html: sanitizeHtml(html) }}
      />
      {(overflows || open) && (
        <button type="button" className="link" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
          {open ? t('ticket.read_less') : t('ticket.read_more')}
        </button>
      )}
    </div>
  );
}

const benefitDetail = (b: Benefit, tk: MyTicket): BenefitDetail => ({
  name: b.name,
  shortDescription: b.shortDescription,
  fullDescription: b.fullDescription,
  used: benefitUsed(b),
  validUntil: b.validUntil,
  timeZone: tk.eventTimeZone,
});

/**
 * The ticket screen: its loading, not-found and error states here; its parts are the details (ticket-details.tsx),
 * the event-access item and benefit list (ticket-benefits.tsx) and the actions (ticket-actions.tsx).
 */
export default function TicketScreen() {
  const { t } = useTranslation();
  const route = useRoute();
  const config = usePanelConfig();
  const ticket = useTicket(route.userTicketId);
  // The open detail: the event-access item or a benefit by id (read from the latest ticket data, so
  // that an unlock's refresh shows at once).
  const [detail, setDetail] = useState<'access' | number | null>(null);
  // Stable, so that the modal keeps its focus when the ticket re-renders (e.g. after an unlock).
  const closeDetail = useCallback(() => setDetail(null), []);
  useEffect(() => {
    if (!route.userTicketId) navigate({ tab: 'MY_TICKET', userTicketId: null, ticketName: null }, { replace: true });
  }, [route.userTicketId]);

  const back = (
    <button
      type="button"
      className="back-btn"
      onClick={() => navigate({ tab: 'MY_TICKET', userTicketId: null, ticketName: null })}
    >
      <BackIcon />
      {t('common.back')}
    </button>
  );
  if (ticket.isLoading || !route.userTicketId)
    return (
      <div className="stack">
        {back}
        <Skeleton height={180} radius={16} />
        <Skeleton width="60%" height={24} />
        <Skeleton width="80%" />
      </div>
    );
  // Not found (gifted, resold, swapped away, or a stale link): trying again cannot help; the way back can (issue 13).
  if (ticket.error?.message === 'api.ticket.not_found')
    return (
      <div className="stack">
        {back}
        <EmptyState message={t('api.ticket.not_found')} hint={t('feedback.ticket_not_found_hint')}>
          <Button onClick={() => navigate({ tab: 'MY_TICKET', userTicketId: null, ticketName: null })}>
            {t('feedback.back_to_tickets')}
          </Button>
        </EmptyState>
      </div>
    );
  if (!ticket.data)
    return (
      <div className="stack">
        {back}
        <ErrorState message={t(failureKey(ticket.error))} onRetry={ticket.refetch} />
      </div>
    );

  const tk = ticket.data;
  const base = config?.assetsBaseUrl;
  const accessUsed = tk.eventAccessStatus === 'USED';
  // A cancelled event's access not used is void: said so, without a "valid until" (issue 46).
  const cancelled = accessCancelled(tk);
  const access: BenefitDetail = {
    name: t('ticket.event_access'),
    shortDescription: cancelled ? t('ticket.access_cancelled') : t('ticket.event_access_text'),
    fullDescription: tk.ticketDescription,
    used: accessUsed,
    ...(cancelled ? { state: t('tickets.cancelled') } : {}),
    usedLabel: tk.eventAccessUsedOn
      ? t('ticket.used_on', { date: formatWhen(tk.eventAccessUsedOn, tk.eventTimeZone) })
      : undefined,
    validUntil: cancelled ? null : tk.eventEndDateTime,
    timeZone: tk.eventTimeZone,
  };
  // The benefit list shows only what was bought (spec section 2: purchasedAmount above 0).
  const benefits = tk.benefits.filter((b) => b.purchasedAmount > 0);
  const openBenefit =
    typeof detail === 'number' ? tk.benefits.find((b) => b.userTicketBenefitId === detail) : undefined;
  return (
    <article className="stack ticket-page" aria-labelledby="ticket-title">
      <div className="row-between">
        {back}
        <TicketActions ticket={tk} />
      </div>
      {tk.eventCancelled && (
        <section className="ticket-cancelled">
          <strong>{t('ticket.cancelled')}</strong>
          {tk.eventCancelled.reason !== null && <p>{t('ticket.cancelled_by', { reason: tk.eventCancelled.reason })}</p>}
        </section>
      )}
      {tk.eventImage && <img className="ticket-page__hero" src={assetUrl(tk.eventImage, base)} alt="" />}
      {tk.eventRescheduled && !tk.eventCancelled && <p className="ticket-rescheduled">{t('ticket.new_date')}</p>}
      <TicketDetails tk={tk} />
      <EventAccessSection tk={tk} onOpen={() => setDetail('access')} />
      {tk.eventAccessStatus !== 'USED' && <ExchangeReturnSlot userTicketId={tk.userTicketId} />}
      {(tk.refund?.requestable || tk.refund?.request) && (
        <Suspense fallback={null}>
          <RefundRequest ticket={tk} />
        </Suspense>
      )}
      {tk.eventDescription && (
        <section aria-labelledby="about-title" className="stack-sm">
          <h2 id="about-title" className="section-title">
            {t('ticket.about')}
          </h2>
          <Clamp html={tk.eventDescription} />
        </section>
      )}
      <BenefitsSection benefits={benefits} onOpen={setDetail} />
      {detail === 'access' && <BenefitModal detail={access} onClose={closeDetail} />}
      {openBenefit && (
        <BenefitModal detail={benefitDetail(openBenefit, tk)} onClose={closeDetail}>
          <BenefitUnlock benefit={openBenefit} userTicketId={tk.userTicketId} ticketKey={route.userTicketId} />
        </BenefitModal>
      )}
    </article>
  );
}
