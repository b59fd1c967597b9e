import { useEffect, useEffectEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../lib/query-keys';

/**
 * Fresh TICKETS and SWAPPABLE_TICKETS when the screen opens (e.g. back from the checkout) and on a back-forward
 * restore, where the swap targets are refreshed too and `onRestore` runs (the screen stops "leaving").
 */
export function useSwapRefresh(onRestore: () => void) {
  const qc = useQueryClient();
  const restored = useEffectEvent(onRestore);
  useEffect(() => {
    void qc.invalidateQueries({ queryKey: queryKeys.swappableTickets.all });
    void qc.invalidateQueries({ queryKey: queryKeys.tickets.all });
    const onShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      restored();
      void qc.invalidateQueries({ queryKey: queryKeys.swappableTickets.all });
      void qc.invalidateQueries({ queryKey: queryKeys.tickets.all });
      void qc.invalidateQueries({ queryKey: queryKeys.ticketsSwap.all });
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [qc]);
}
