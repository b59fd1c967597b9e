/**
 * The tab's title follows the panel's language and screen (issue 29): "Gift Ticket · My tickets",
 * "Regalar entrada · Mis entradas"; the sign-in screens show the panel's name alone. The server writes the
 * first title into the document per language (app.ts), so it is right before the script runs too.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { PanelTab } from '@tp/contract/constants';
import { useRoute } from '../lib/use-route';

/** The catalogue key of each screen's name in the title (the menu's names); none for the sign-in screens. */
const SCREEN_TITLE: Partial<Record<PanelTab, string>> = {
  QR: 'hub.my_qr',
  MY_TICKET: 'hub.my_tickets',
  TICKET: 'hub.my_tickets',
  GIFT: 'hub.gift',
  SWAP: 'hub.swap',
  RESELL: 'hub.resell',
  REDEEM: 'hub.redeem',
  SETTINGS: 'hub.settings',
};

/** Sets `document.title` from the route's screen and the active language. */
export function useDocumentTitle(): void {
  const { t, i18n } = useTranslation();
  const { tab } = useRoute();
  useEffect(() => {
    const app = t('doc_title.app');
    const screen = SCREEN_TITLE[tab];
    const name = screen ? t(screen) : app;
    // "Mis entradas" is both the list's name and the panel's: said once.
    document.title = name.toLowerCase() === app.toLowerCase() ? app : `${name} · ${app}`;
  }, [t, i18n.language, tab]);
}
