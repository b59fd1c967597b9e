/**
 * The HUB overlay (spec section 2 Hub): nickname with its #suffix, e-mail, picture or initials;
 * tiles for My QR Code, My Tickets, Gift, Swap, Resell, Redeem, Settings and Logout; the help centre
 * link (config helpCenterUrl) and a get-the-app prompt (config appUrl). Every tile opens its screen.
 * Issue 40 point 2: the head is titled with the holder's name (first and last name), the username `name#1234`
 * beneath it; a holder with no name yet is titled with the username. Point 3: closing goes back past the entry
 * the avatar added (`closeSheet`), or, opened by a link, drops the overlay from this entry (no entry added), so
 * Back afterwards never reopens it.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePanelConfig, useUser } from '../../../lib/queries';
import { linkWithLang } from '../../../lib/i18n';
import { assetUrl } from '../../../lib/format';
import { HUB_SHEET, navigate, useRoute } from '../../../lib/use-route';
import { closeSheet } from '../../../lib/sheet-entry';
import { Avatar } from '../../../ui/avatar';
import { Modal } from '../../../ui/modal';
import { Username } from '../../../ui/username';
import { HelpIcon, LogoutIcon, PhoneIcon } from '../../../ui/icons';
import { LogoutDialog } from './logout-dialog';
import { TILES, tileRoute } from '../tiles';
import '../hub.css';

/** The wide-screen side menu, in this chunk: the app root loads it with the hub's code. */
export { default as SideMenu } from './side-menu';

/** "First Last" from the profile's names (either may be missing), trimmed; null when neither is set. */
export function holderName(givenName?: string | null, familyName?: string | null): string | null {
  const name = [givenName, familyName]
    .map((n) => n?.trim())
    .filter(Boolean)
    .join(' ');
  return name || null;
}

export function HubOverlay() {
  const { t, i18n } = useTranslation();
  const user = useUser().data;
  const config = usePanelConfig();
  const route = useRoute();
  const [logout, setLogout] = useState(false);
  const close = () => {
    if (!closeSheet(HUB_SHEET)) navigate({ overlay: null }, { replace: true });
  };
  const name = holderName(user?.givenName, user?.familyName);
  return (
    <Modal title={t('hub.title')} onClose={close} hideTitle inUrl>
      <div className="hub">
        <div className="hub__head">
          <Avatar
            picture={assetUrl(user?.picture, config?.assetsBaseUrl)}
            givenName={user?.givenName}
            familyName={user?.familyName}
            size={56}
          />
          <div className="hub__who">
            {!user ? (
              <span className="hub__name">…</span>
            ) : name ? (
              <>
                <span className="hub__name">{name}</span>
                <Username value={user.preferredUsername} className="muted small" />
              </>
            ) : (
              <Username value={user.preferredUsername} className="hub__name" />
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
                  onClick={() => navigate(tileRoute(tab))}
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
            <a
              className="hub-link"
              href={linkWithLang(config.helpCenterUrl, i18n.language)}
              target="_blank"
              rel="noopener noreferrer"
            >
              <HelpIcon />
              {t('hub.help_center')}
            </a>
            <a
              className="hub-app"
              href={linkWithLang(config.appUrl, i18n.language)}
              target="_blank"
              rel="noopener noreferrer"
            >
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
