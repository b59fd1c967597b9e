import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { queryKeys } from '../../../lib/query-keys';
import type { SwapTicket } from '../api/swappable-tickets.api';
import { startSwap, useStartSwap, type StartSwapResult } from '../api/start-swap.api';
import { checkoutUrl } from '../checkout-url';
import { releaseSwap, rememberCheckout } from '../use-checkout-return';
import { rememberSwap } from '../swap-outcome';
import type { SwapSelection } from './use-swap-selection';

/** A started swap awaiting the holder's confirmation. */
export interface SwapPending {
  target: SwapTicket;
  result: StartSwapResult;
}

/**
 * The started swap and the way to the checkout: `choose` starts the swap (a failure toasts
 * api.start_swap_failed), `cancel` releases its held stock and resets, `confirm` remembers the swap and leaves
 * for the checkout address. `difference` is in cents of `currency` (price difference times the count).
 */
export function useSwapCheckout(p: {
  selection: SwapSelection | null;
  base: SwapTicket | undefined;
  checkoutBaseUrl: string | undefined;
  clearSelection: () => void;
}) {
  const { t, i18n } = useTranslation();
  const qc = useQueryClient();
  const start = useStartSwap();
  const [pending, setPending] = useState<SwapPending | null>(null);
  const [leaving, setLeaving] = useState(false);
  const { selection, base } = p;

  const reset = () => {
    p.clearSelection();
    setPending(null);
    start.reset();
  };
  // Cancel in the confirmation modal: the started swap is cancelled, its held stock released at once.
  const cancel = () => {
    if (pending) releaseSwap(pending.result.orderIdentifier);
    reset();
  };

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
    if (!pending || p.checkoutBaseUrl === undefined || !base || !selection) return;
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
        checkoutBaseUrl: p.checkoutBaseUrl,
        locale: i18n.language,
        name: pending.result.name,
        eventId: pending.target.eventId,
        orderIdentifier: pending.result.orderIdentifier,
        redirectDomain: window.location.href,
      }),
    );
  };

  return {
    pending,
    leaving,
    stopLeaving: () => setLeaving(false),
    starting: { isPending: start.isPending, swapPairId: start.variables?.swapPairId },
    difference,
    currency,
    choose,
    cancel,
    reset,
    confirm,
  };
}
