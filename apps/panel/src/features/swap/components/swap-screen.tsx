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
import { useTranslation } from 'react-i18next';
import { usePanelConfig } from '../../../lib/queries';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { EmptyState, SeeMyTicketsButton } from '../../../ui/empty-state';
import { ScreenHeader } from '../../../ui/screen-header';
import { useSwappableTickets } from '../api/swappable-tickets.api';
import { useCheckoutReturn } from '../use-checkout-return';
import { useSwapOutcome } from '../swap-outcome';
import { useSwapRefresh } from '../hooks/use-swap-refresh';
import { useSwapSelection } from '../hooks/use-swap-selection';
import { useSwapCheckout } from '../hooks/use-swap-checkout';
import { SwapDone } from './swap-done';
import { SwapBaseStep } from './swap-base-step';
import { SwapTargetStep } from './swap-target-step';
import { SwapConfirmStep } from './swap-confirm-step';
import '../swap.css';

export default function SwapScreen() {
  const { t } = useTranslation();
  const config = usePanelConfig();
  const bases = useSwappableTickets();
  const { selection, setCount, clear } = useSwapSelection(bases.data);
  const base = bases.data?.find((b) => b.id === selection?.baseId);
  const checkout = useSwapCheckout({
    selection,
    base,
    checkoutBaseUrl: config?.checkoutBaseUrl,
    clearSelection: clear,
  });
  // Back from the checkout: main's flow confirms it; a confirmed swap shows what changed (issue 13).
  const { outcome, confirmed: swapConfirmed, dismiss: dismissOutcome } = useSwapOutcome();
  useCheckoutReturn(swapConfirmed);
  useSwapRefresh(checkout.stopLeaving);

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
      <SwapBaseStep list={list} selection={selection} assetsBaseUrl={assets} onCount={setCount} />
      {selection && base && (
        <SwapTargetStep
          base={base}
          selection={selection}
          assetsBaseUrl={assets}
          starting={checkout.starting}
          onChoose={(x) => void checkout.choose(x)}
          onReset={checkout.reset}
        />
      )}
      {checkout.pending && base && selection && (
        <SwapConfirmStep
          base={base}
          selection={selection}
          pending={checkout.pending}
          difference={checkout.difference}
          currency={checkout.currency}
          leaving={checkout.leaving}
          canConfirm={!!config}
          onCancel={checkout.cancel}
          onConfirm={checkout.confirm}
        />
      )}
    </div>
  );
}
