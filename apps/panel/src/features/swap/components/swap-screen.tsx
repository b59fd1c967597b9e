/**
 * SWAP (spec sections 2 Swap, 4 Swap, 7, 8): choose a base ticket and a count, then a target ticket; the
 * start-swap call; the disclaimer and confirmation modal (a DOWNGRADE loses the price difference, an UPGRADE
 * pays it at checkout); then the redirect to the checkout address. Cancel resets (and cancels a started swap,
 * releasing its held stock); back from the checkout the swap is confirmed or released (use-checkout-return).
 * - The count starts at 1 on the ticket named by USER_TICKET_ID, else 0; it never exceeds the ticket's
 *   quantity; decreasing from 1 deselects.
 * - A failed target fetch toasts api.internal_error and resets the selection; a failed start toasts
 *   api.start_swap_failed.
 * - Back from the checkout, a confirmed swap is summarised above the list: before, now, count, paid or not
 *   refunded (issue 13).
 * - TICKETS and SWAPPABLE_TICKETS are refreshed when the screen opens (and when the page comes back from
 *   the back-forward cache), so a swap confirmed at the checkout shows at once.
 */
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { clearToastErrors, toast } from '../../../lib/toast';
import { usePanelConfig } from '../../../lib/queries';
import { assetUrl, formatDate, formatMoney } from '../../../lib/format';
import { useRoute } from '../../../lib/use-route';
import { Button } from '../../../ui/button';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { EmptyState, SeeMyTicketsButton } from '../../../ui/empty-state';
import { Modal } from '../../../ui/modal';
import { SwapIcon } from '../../../ui/icons';
import { useSwappableTickets, type SwapTicket } from '../api/swappable-tickets.api';
import { swapTargetsQuery, useSwapTargets } from '../api/swap-targets.api';
import { startSwap, useStartSwap, type StartSwapResult } from '../api/start-swap.api';
import { checkoutUrl } from '../checkout-url';
import { releaseSwap, rememberCheckout, useCheckoutReturn } from '../use-checkout-return';
import { SwapCard } from './swap-card';
import { SwapDone } from './swap-done';
import { rememberSwap, useSwapOutcome } from '../swap-outcome';
import '../swap.css';
import { ScreenHeader } from '../../../ui/screen-header';
import { queryKeys } from '../../../lib/query-keys';

interface Selection {
  baseId: number;
  count: number;
}
interface Pending {
  target: SwapTicket;
  result: StartSwapResult;
}

const cardDate = (x: SwapTicket) =>
  x.eventStartDateTime ? formatDate(x.eventStartDateTime, x.eventTimeZone) : undefined;
const cardVenue = (x: SwapTicket) => [x.eventVenue, x.eventCity].filter(Boolean).join(', ') || undefined;

/** The base ticket's count stepper: minus at 1 deselects, plus stops at the quantity held. */
function Stepper(p: { ticket: SwapTicket; count: number; onChange: (n: number) => void }) {
  const { t } = useTranslation();
  const label = `${p.ticket.name}${p.ticket.eventName ? `, ${p.ticket.eventName}` : ''}`;
  return (
    <div className="swap-stepper">
      <span className="muted small">{t('swap.you_hold', { count: p.ticket.quantity })}</span>
      <div className="swap-stepper__controls" role="group" aria-label={t('swap.count_label', { name: label })}>
        <button
          type="button"
          className="icon-btn swap-stepper__btn"
          aria-label={t('swap.decrease', { name: label })}
          disabled={p.count <= 0}
          onClick={() => p.onChange(p.count - 1)}
        >
          −
        </button>
        <output className="swap-stepper__value" aria-live="polite" aria-label={t('swap.count_label', { name: label })}>
          {p.count}
        </output>
        <button
          type="button"
          className="icon-btn swap-stepper__btn"
          aria-label={t('swap.increase', { name: label })}
          disabled={p.count >= p.ticket.quantity}
          onClick={() => p.onChange(p.count + 1)}
        >
          +
        </button>
      </div>
    </div>
  );
}

export default function SwapScreen() {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const route = useRoute();
  const config = usePanelConfig();
  const bases = useSwappableTickets();
  const [selection, setSelection] = useState<Selection | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [leaving, setLeaving] = useState(false);
  const preselected = useRef(false);
  const targets = useSwapTargets(selection?.baseId ?? null);
  const start = useStartSwap();
  // Back from the checkout: main's flow confirms it; a confirmed swap shows what changed (issue 13).
  const { outcome, confirmed: swapConfirmed, dismiss: dismissOutcome } = useSwapOutcome();
  useCheckoutReturn(swapConfirmed);

  // Fresh TICKETS and SWAPPABLE_TICKETS on arrival (e.g. back from the checkout) and on a back-forward restore.
  useEffect(() => {
    void qc.invalidateQueries({ queryKey: queryKeys.swappableTickets.all });
    void qc.invalidateQueries({ queryKey: queryKeys.tickets.all });
    const onShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      setLeaving(false);
      void qc.invalidateQueries({ queryKey: queryKeys.swappableTickets.all });
      void qc.invalidateQueries({ queryKey: queryKeys.tickets.all });
      void qc.invalidateQueries({ queryKey: queryKeys.ticketsSwap.all });
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [qc]);

  // Selecting a base ticket type loads its targets; a failed fetch toasts api.internal_error and resets the
  // selection (spec sections 4, 8), unless another base was chosen meanwhile.
  const select = (next: Selection) => {
    setSelection(next);
    void qc
      .fetchQuery(swapTargetsQuery(next.baseId))
      .then(() => clearToastErrors(swapTargetsQuery))
      .catch(() => {
        toast.error(t('api.internal_error'), { action: swapTargetsQuery });
        setSelection((current) => (current?.baseId === next.baseId ? null : current));
      });
  };

  // USER_TICKET_ID in the URL: select that ticket's type with a count of 1 (once, when the list arrives).
  const preselect = useEffectEvent((list: SwapTicket[]) => {
    const id = Number(route.userTicketId);
    if (!route.userTicketId || !Number.isInteger(id)) return;
    const base = list.find((b) => b.userTicketIds?.includes(id));
    if (base && base.quantity > 0) select({ baseId: base.id, count: 1 });
  });
  useEffect(() => {
    if (preselected.current || !bases.data) return;
    preselected.current = true;
    preselect(bases.data);
  }, [bases.data]);

  const resetStart = start.reset;
  const reset = useCallback(() => {
    setSelection(null);
    setPending(null);
    resetStart();
  }, [resetStart]);
  // Cancel in the confirmation modal: the started swap is cancelled, its held stock released at once.
  const cancelPending = () => {
    if (pending) releaseSwap(pending.result.orderIdentifier);
    reset();
  };

  const setCount = (base: SwapTicket, n: number) => {
    const count = Math.min(Math.max(n, 0), base.quantity);
    if (count === 0) {
      setSelection(null);
      return;
    }
    select({ baseId: base.id, count });
  };

  const base = bases.data?.find((b) => b.id === selection?.baseId);
  const difference = pending && base ? Math.abs(pending.target.price - base.price) * (selection?.count ?? 1) : 0;
  const symbol = pending?.target.currencySymbol ?? base?.currencySymbol ?? '';
  const currency = pending?.target.currencyCode ?? base?.currencyCode ?? '';

  const choose = async (target: SwapTicket) => {
    if (!selection) return;
    try {
      const result = await start.mutateAsync({
        baseTicketId: selection.baseId,
        swapPairId: target.id,
        swapQuantity: selection.count,
      });
      setPending({ target, result });
    } catch {
      toast.error(t('api.start_swap_failed'), { action: startSwap });
    }
  };

  const confirm = () => {
    if (!pending || !config || !base || !selection) return;
    setLeaving(true);
    rememberCheckout(pending.result.orderIdentifier);
    rememberSwap({
      orderIdentifier: pending.result.orderIdentifier,
      swapType: pending.result.swapType,
      count: selection.count,
      fromName: base.name,
      toName: pending.target.name,
      eventName: base.eventName,
      amount: difference,
      currencySymbol: symbol,
      currencyCode: currency,
    });
    void qc.invalidateQueries({ queryKey: queryKeys.swappableTickets.all });
    void qc.invalidateQueries({ queryKey: queryKeys.tickets.all });
    window.location.assign(
      checkoutUrl({
        checkoutBaseUrl: config.checkoutBaseUrl,
        locale: i18n.language,
        name: pending.result.name,
        eventId: pending.target.eventId,
        orderIdentifier: pending.result.orderIdentifier,
        redirectDomain: window.location.href,
      }),
    );
  };

  const assets = config?.assetsBaseUrl;
  const header = (
    <>
      <ScreenHeader title={t('swap.title')} subtitle={t('swap.subtitle')} />
      {outcome?.state === 'done' && <SwapDone summary={outcome.summary} onAgain={dismissOutcome} />}
    </>
  );

  if (bases.isLoading) {
    return (
      <div className="stack">
        {header}
        <div className="stack" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={112} radius={14} />
          ))}
        </div>
      </div>
    );
  }
  if (bases.isError) {
    return (
      <div className="stack">
        {header}
        <ErrorState
          message={t(
            bases.error.message === 'request_failed' || bases.error.message === 'offline'
              ? bases.error.message
              : 'api.internal_error',
          )}
          onRetry={bases.refetch}
        />
      </div>
    );
  }
  const list = bases.data ?? [];
  if (list.length === 0)
    return (
      <div className="stack">
        {header}
        <EmptyState message={t('swap.empty')} hint={t('feedback.swap_empty_hint')}>
          <SeeMyTicketsButton variant="secondary" />
        </EmptyState>
      </div>
    );

  return (
    <div className="stack swap">
      {header}
      <section className="stack" aria-labelledby="swap-base-title">
        <h2 id="swap-base-title" className="section-title">
          {t('swap.step_base')}
        </h2>
        <ul className="swap-list">
          {list.map((b) => {
            const count = selection?.baseId === b.id ? selection.count : 0;
            return (
              <li key={b.id}>
                <SwapCard
                  image={assetUrl(b.logo, assets)}
                  title={b.name}
                  subtitle={b.eventName}
                  price={b.price}
                  currencySymbol={b.currencySymbol}
                  currencyCode={b.currencyCode}
                  date={cardDate(b)}
                  venue={cardVenue(b)}
                  selected={count > 0}
                  variant={count > 0 ? 'solid' : 'default'}
                >
                  <Stepper ticket={b} count={count} onChange={(n) => setCount(b, n)} />
                </SwapCard>
              </li>
            );
          })}
        </ul>
      </section>

      {selection && base && (
        <section className="stack" aria-labelledby="swap-target-title" aria-busy={targets.isLoading || undefined}>
          <h2 id="swap-target-title" className="section-title">
            {t('swap.step_target', { count: selection.count, name: base.name })}
          </h2>
          {targets.isLoading ? (
            <div className="stack">
              {[0, 1].map((i) => (
                <Skeleton key={i} height={112} radius={14} />
              ))}
            </div>
          ) : targets.data && targets.data.length > 0 ? (
            <ul className="swap-list">
              {targets.data.map((x) => {
                const soldOut = x.quantity < selection.count;
                const diff = x.price - base.price;
                return (
                  <li key={x.id}>
                    <SwapCard
                      image={assetUrl(x.logo, assets)}
                      title={x.name}
                      subtitle={x.eventName}
                      price={x.price}
                      currencySymbol={x.currencySymbol}
                      currencyCode={x.currencyCode}
                      date={cardDate(x)}
                      venue={cardVenue(x)}
                      note={
                        soldOut
                          ? t('swap.sold_out')
                          : diff > 0
                            ? t('swap.diff_more', { amount: formatMoney(diff, x.currencyCode) })
                            : diff < 0
                              ? t('swap.diff_less', { amount: formatMoney(-diff, x.currencyCode) })
                              : t('swap.diff_same')
                      }
                      actions={[
                        {
                          icon: SwapIcon,
                          label: t('swap.choose', { name: x.name }),
                          onClick: () => void choose(x),
                          disabled: soldOut || start.isPending,
                          busy: start.isPending && start.variables?.swapPairId === x.id,
                        },
                      ]}
                    />
                  </li>
                );
              })}
            </ul>
          ) : targets.data ? (
            <EmptyState message={t('swap.no_targets')} hint={t('feedback.swap_no_targets_hint')}>
              <Button variant="secondary" onClick={reset}>
                {t('feedback.choose_another')}
              </Button>
            </EmptyState>
          ) : null}
          <Button variant="ghost" onClick={reset}>
            {t('common.cancel')}
          </Button>
        </section>
      )}

      {pending && base && selection && (
        <Modal
          title={t('swap.confirm_title')}
          onClose={cancelPending}
          footer={
            <>
              <Button variant="secondary" onClick={cancelPending} disabled={leaving}>
                {t('common.cancel')}
              </Button>
              <Button onClick={confirm} loading={leaving} disabled={!config}>
                {pending.result.swapType === 'UPGRADE' ? t('swap.to_checkout') : t('swap.confirm')}
              </Button>
            </>
          }
        >
          <div className="stack">
            <dl className="swap-summary">
              <dt>{t('swap.from')}</dt>
              <dd>
                {selection.count} × {base.name}
                {base.eventName ? ` · ${base.eventName}` : ''}
              </dd>
              <dt>{t('swap.to')}</dt>
              <dd>
                {selection.count} × {pending.target.name}
              </dd>
            </dl>
            <p className="note" role="note">
              {pending.result.swapType === 'UPGRADE'
                ? t('swap.disclaimer_upgrade', { amount: formatMoney(difference, currency) })
                : t('swap.disclaimer_downgrade', { amount: formatMoney(difference, currency) })}
            </p>
            <p className="muted small">{t('swap.disclaimer_final')}</p>
          </div>
        </Modal>
      )}
    </div>
  );
}
