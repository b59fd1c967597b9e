/** The hub's screens (spec section 2 Hub), shared by the HUB overlay and the wide-screen side menu. */
import type { ComponentType } from 'react';
import type { PanelTab } from '@tp/contract';
import { GiftIcon, QrIcon, RedeemIcon, ResellIcon, SettingsIcon, SwapIcon, TicketIcon } from '../../ui/icons';

export const TILES: { tab: PanelTab; key: string; Icon: ComponentType }[] = [
  { tab: 'QR', key: 'hub.my_qr', Icon: QrIcon },
  { tab: 'MY_TICKET', key: 'hub.my_tickets', Icon: TicketIcon },
  { tab: 'GIFT', key: 'hub.gift', Icon: GiftIcon },
  { tab: 'SWAP', key: 'hub.swap', Icon: SwapIcon },
  { tab: 'RESELL', key: 'hub.resell', Icon: ResellIcon },
  { tab: 'REDEEM', key: 'hub.redeem', Icon: RedeemIcon },
  { tab: 'SETTINGS', key: 'hub.settings', Icon: SettingsIcon },
];

/** The route patch of a tile: its screen, with the overlay and the screen's own parameters cleared. */
export const tileRoute = (tab: PanelTab) =>
  ({ tab, overlay: null, userTicketId: null, ticketName: null, settingsTab: null }) as const;
