/**
 * The resale form as the holder left it to set up a payout account (issue 23), kept in this tab's
 * sessionStorage: the resell screen saves it when its payout link is followed, the payout tab's way back
 * opens RESELL with the ticket, and the form restores quantity and price. Forgotten once a listing is made.
 */
import { SETTINGS_TAB_PAYOUT } from '@tp/contract/constants';
import type { Route } from './routing';

export interface ResellDraft {
  /** The ticket entry being resold (spec `userTicketId`). */
  userTicketId: number;
  quantity: number;
  /** The price per ticket as typed (major units, '' when none). */
  price: string;
}

const KEY = 'tp.resellDraft';

/** The settings payout tab (SETTINGS_TAB=ACCOUNT_VERIFICATION), without the ticket of the screen it leaves. */
export const PAYOUT_ROUTE: Partial<Route> = {
  tab: 'SETTINGS',
  settingsTab: SETTINGS_TAB_PAYOUT,
  overlay: null,
  userTicketId: null,
  ticketName: null,
};

export function saveResellDraft(draft: ResellDraft): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(draft));
  } catch {
    /* storage blocked: the way back opens an empty form */
  }
}

/** The draft kept in this tab, or null (none, unreadable, or storage blocked). */
export function readResellDraft(): ResellDraft | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    const d = raw ? (JSON.parse(raw) as Partial<ResellDraft>) : null;
    if (!d || typeof d.userTicketId !== 'number' || typeof d.quantity !== 'number' || typeof d.price !== 'string')
      return null;
    return { userTicketId: d.userTicketId, quantity: d.quantity, price: d.price };
  } catch {
    return null;
  }
}

export function forgetResellDraft(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    /* nothing kept */
  }
}

/** Where the payout tab's way back goes: RESELL with the draft's ticket (pre-selected there), or RESELL. */
export function resellReturnRoute(): Partial<Route> {
  const draft = readResellDraft();
  return { tab: 'RESELL', settingsTab: null, userTicketId: draft ? String(draft.userTicketId) : null };
}
