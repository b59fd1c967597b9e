/**
 * Back from the swap checkout (spec section 7: the checkout sends the holder back to the page it was
 * opened from, `redirectDomain`). Before leaving, the screen stores the swap's identifier
 * (`rememberCheckout`); when the SWAP screen loads again with one stored:
 * - a fresh load (the checkout redirected back): POST /ticket_swap/confirm_swap/{id}. Confirmed, or
 *   already confirmed by the sandbox checkout: success. Not paid (api.swap.payment_required) or no longer
 *   pending (api.swap.expired): the swap did not happen; cancel_swap releases the held stock at once.
 * - a back-forward restore (the holder pressed Back on the checkout): cancel_swap, stock released at once.
 * TICKETS and SWAPPABLE_TICKETS are refreshed after either (spec section 4).
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, errorKey } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { storage } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { cancelSwap, confirmSwap } from './api/finish-swap.api';

/** Stores the swap about to be paid at the checkout. */
export const rememberCheckout = (swapIdentifier: string) => storage.set('swapIdentifier', swapIdentifier);

/** Releases a started swap the holder turned down (the confirmation modal's Cancel); never throws. */
export function releaseSwap(swapIdentifier: string): void {
  storage.remove('swapIdentifier');
  void cancelSwap(swapIdentifier).catch(() => undefined);
}

const NOT_DONE = new Set(['api.swap.payment_required', 'api.swap.expired']);

/** Finishes the stored swap when the screen mounts or comes back from the back-forward cache. */
export function useCheckoutReturn(): void {
  const qc = useQueryClient();
  const { t } = useTranslation();
  useEffect(() => {
    const refresh = () => {
      void qc.invalidateQueries({ queryKey: queryKeys.swappableTickets.all });
      void qc.invalidateQueries({ queryKey: queryKeys.tickets.all });
    };
    const cancelled = (id: string) => {
      releaseSwap(id);
      toast.error(t('swap_return.cancelled'), { toastId: 'swap-return' });
      refresh();
    };
    const finish = async () => {
      const id = storage.get('swapIdentifier');
      if (!id) return;
      storage.remove('swapIdentifier');
      try {
        await confirmSwap(id);
        toast.success(t('swap_return.confirmed'), { toastId: 'swap-return' });
      } catch (err) {
        const key = errorKey(err);
        if (key === 'api.swap.already_confirmed') toast.success(t('swap_return.confirmed'), { toastId: 'swap-return' });
        else if (err instanceof ApiError && NOT_DONE.has(key)) cancelled(id);
        else toast.error(t(key), { toastId: 'swap-return' });
      }
      refresh();
    };
    void finish();
    const onShow = (e: PageTransitionEvent) => {
      const id = storage.get('swapIdentifier');
      if (e.persisted && id) cancelled(id);
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [qc, t]);
}
