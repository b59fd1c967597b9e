/**
 * What a swap sent to the checkout was, kept in this tab's sessionStorage across the checkout's round trip,
 * so that the swap screen can say what changed once it is back (issue 13): the order, the count, the ticket
 * types before and after, and the money (an UPGRADE pays `amount`, a DOWNGRADE loses it; spec section 4 Swap).
 */
import { useCallback, useEffect, useState } from 'react';

export interface SwapSummary {
  orderIdentifier: string;
  swapType: 'UPGRADE' | 'DOWNGRADE';
  count: number;
  fromName: string;
  toName: string;
  eventName?: string;
  /** The price difference for all `count` tickets, in major units (two decimals shown). */
  amount: number;
  currencySymbol: string;
  /** ISO 4217 code the amount is written with (formatMoney); absent in a summary stored before issue 29. */
  currencyCode?: string;
}

const KEY = 'tp.swapAtCheckout';

/** Remembers the swap about to go to the checkout. */
export function rememberSwap(summary: SwapSummary): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(summary));
  } catch {
    /* storage blocked: the swap still happens, the screen just cannot summarise it */
  }
}

function readSwap(): SwapSummary | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as SwapSummary) : null;
  } catch {
    return null;
  }
}

function forgetSwap(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* nothing kept */
  }
}

export type SwapOutcome = { state: 'done'; summary: SwapSummary } | null;

/**
 * The summary of the swap remembered before the checkout, shown once `confirmed(id)` is called for it (by
 * useCheckoutReturn, when confirm_swap succeeded or the checkout had confirmed it). Read and forgotten at
 * mount, so a swap that did not go through leaves nothing behind. `dismiss` forgets the outcome.
 */
export function useSwapOutcome(): {
  outcome: SwapOutcome;
  confirmed: (swapIdentifier: string) => void;
  dismiss: () => void;
} {
  const [remembered] = useState(readSwap);
  const [outcome, setOutcome] = useState<SwapOutcome>(null);
  useEffect(() => forgetSwap(), []);
  const confirmed = useCallback(
    (id: string) => {
      if (remembered?.orderIdentifier === id) setOutcome({ state: 'done', summary: remembered });
    },
    [remembered],
  );
  const dismiss = useCallback(() => setOutcome(null), []);
  return { outcome, confirmed, dismiss };
}
