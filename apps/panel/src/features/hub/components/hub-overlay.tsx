/**
 * The HUB overlay (spec section 2 Hub): nickname with its #suffix, e-mail, picture or initials;
 * tiles for My QR Code, My Tickets, Gift, Swap, Resell, Redeem, Settings and Logout; the help centre
 * link (config helpCenterUrl) and a get-the-app prompt (config appUrl). Every tile opens its screen.
 */
import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { PanelTab } from '@tp/contract';
import { usePanelConfig, useUser } from '../../../lib/queries';
import { assetUrl } from '../../../lib/format';
import { navigate, useRoute } from '../../../lib/use-route';
import { Avatar } from '../../../ui/avatar';
import { Modal } from '../../../ui/modal';
import { Username } from '../../../ui/username';
import {
  GiftIcon,
  HelpIcon,
  LogoutIcon,
  PhoneIcon,
  QrIcon,
  RedeemIcon,
  ResellIcon,
  SettingsIcon,
  SwapIcon,
  TicketIcon,
} from '../../../ui/icons';
import { LogoutDialog } from './logout-dialog';
import '../hub.css';

const TILES: { tab: PanelTab; key: string; Icon: ComponentType }[] = [
  { tab: 'QR', key: 'hub.my_qr', Icon: QrIcon },
  { tab: 'MY_TICKET', key: 'hub.my_tickets', Icon: TicketIcon },
  { tab: 'GIFT', key: 'hub.gift', Icon: GiftIcon },
  { tab: 'SWAP', key: 'hub.swap', Icon: SwapIcon },
  { tab: 'RESELL', key: 'hub.resell', Icon: ResellIcon },
  { tab: 'REDEEM', key: 'hub.redeem', Icon: RedeemIcon },
  { tab: 'SETTINGS', key: 'hub.settings', Icon: SettingsIcon },
];

export function HubOverlay() {
  const { t } = useTranslation();
  const user = useUser().data;
  const config = usePanelConfig();
  const route = useRoute();
  const [logout, setLogout] = useState(false);
  const close = () => navigate({ overlay: null });
  return (
    <Modal title={t('hub.title')} onClose={close} hideTitle>
      <div className="hub">
        <div className="hub__head">
          <Avatar
            picture={assetUrl(user?.picture, config?.assetsBaseUrl)}
            givenName={user?.givenName}
            familyName={user?.familyName}
            size={56}
          />
          <div className="hub__who">
            {user ? (
              <Username value={user.preferredUsername} className="hub__name" />
            ) : (
              <span className="hub__name">…</span>
            )}
            <span className="muted small">{user?.email}</span>
          </div>
        </div>
        <nav aria-label={t('hub.title')}>
          <ul className="hub__tiles">
            {TILES.map(({ tab, key, Icon }) => (
              <li key={tab}>
                <button
                  type="button"
                  className="hub-tile"
                  aria-current={route.tab === tab ? 'page' : undefined}
                  onClick={() =>
                    navigate({ tab, overlay: null, userTicketId: null, ticketName: null, settingsTab: null })
                  }
                >
                  <Icon />
                  <span>{t(key)}</span>
                </button>
              </li>
            ))}
            <li>
              <button type="button" className="hub-tile hub-tile--danger" onClick={() => setLogout(true)}>
                <LogoutIcon />
                <span>{t('hub.logout')}</span>
              </button>
            </li>
          </ul>
        </nav>
        {config && (
          <div className="hub__links">
            <a className="hub-link" href={config.helpCenterUrl} target="_blank" rel="noopener noreferrer">
              <HelpIcon />
              {t('hub.help_center')}
            </a>
            <a className="hub-app" href={config.appUrl} target="_blank" rel="noopener noreferrer">
              <PhoneIcon />
              <span>
                <strong>{t('hub.get_app')}</strong>
                <span className="muted small">{t('hub.get_app_text')}</span>
              </span>
            </a>
          </div>
        )}
      </div>
      {logout && <LogoutDialog onClose={() => setLogout(false)} />}
    </Modal>
  );
}
