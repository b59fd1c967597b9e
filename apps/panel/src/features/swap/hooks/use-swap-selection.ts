import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { clearToastErrors, toast } from '../../../lib/toast';
import { useRoute } from '../../../lib/use-route';
import type { SwapTicket } from '../api/swappable-tickets.api';
import { swapTargetsQuery } from '../api/swap-targets.api';

/** The chosen base ticket type and how many of it to swap (at least 1). */
export interface SwapSelection {
  baseId: number;
  count: number;
}

/**
 * The base ticket selection: selecting loads the base's targets (a failed fetch toasts api.internal_error and
 * clears the selection unless another base was chosen meanwhile); the count is clamped to [0, quantity] and 0
 * deselects; USER_TICKET_ID in the URL selects that ticket's type with a count of 1, once, when `list` arrives.
 */
export function useSwapSelection(list: SwapTicket[] | undefined) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const route = useRoute();
  const [selection, setSelection] = useState<SwapSelection | null>(null);
  const preselected = useRef(false);

  const select = (next: SwapSelection) => {
    setSelection(next);
    void qc
      .fetchQuery(swapTargetsQuery(next.baseId))
      .then(() => clearToastErrors(swapTargetsQuery))
      .catch(() => {
        toast.error(t('api.internal_error'), { action: swapTargetsQuery });
        setSelection((current) => (current?.baseId === next.baseId ? null : current));
      });
  };

  const preselect = useEffectEvent((bases: SwapTicket[]) => {
    const id = Number(route.userTicketId);
    if (!route.userTicketId || !Number.isInteger(id)) return;
    const base = bases.find((b) => b.userTicketIds?.includes(id));
    if (base && base.quantity > 0) select({ baseId: base.id, count: 1 });
  });
  useEffect(() => {
    if (preselected.current || !list) return;
    preselected.current = true;
    preselect(list);
  }, [list]);

  const setCount = (base: SwapTicket, n: number) => {
    const count = Math.min(Math.max(n, 0), base.quantity);
    if (count === 0) {
      setSelection(null);
      return;
    }
    select({ baseId: base.id, count });
  };

  return { selection, setCount, clear: () => setSelection(null) };
}
