/**
 * The side menu of wide screens (spec section 9: side menu 296 px; laptop breakpoint, 1025 px and up): the
 * hub's screens as links beside the content, the current one marked, and logout. Rendered by the app root
 * next to every signed-in screen and shown by its CSS (hub.css) from 1025 px only; the HUB overlay still
 * opens from the avatar.
 */
import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PanelTab } from '@tp/contract';
import { routeToSearch } from '../../../lib/routing';
import { navigate, useRoute } from '../../../lib/use-route';
import { LogoutIcon } from '../../../ui/icons';
import { LogoutDialog } from './logout-dialog';
import { TILES, tileRoute } from '../tiles';
import '../hub.css';

/** The URL of a tile's screen (a real link: it opens in a new tab too). */
const hrefOf = (tab: PanelTab) =>
  `${window.location.pathname}?${routeToSearch(tileRoute(tab), new URLSearchParams(window.location.search)).toString()}`;

export default function SideMenu() {
  const { t } = useTranslation();
  const route = useRoute();
  const [logout, setLogout] = useState(false);
  const go = (tab: PanelTab) => (e: MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    navigate(tileRoute(tab));
  };
  return (
    <aside className="side-menu">
      <nav aria-label={t('side_menu.label')}>
        <ul className="side-menu__list">
          {TILES.map(({ tab, key, Icon }) => (
            <li key={tab}>
              <a
                className="side-menu__item"
                href={hrefOf(tab)}
                aria-current={route.tab === tab ? 'page' : undefined}
                onClick={go(tab)}
              >
                <Icon />
                <span>{t(key)}</span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <button type="button" className="side-menu__item side-menu__item--danger" onClick={() => setLogout(true)}>
        <LogoutIcon />
        <span>{t('hub.logout')}</span>
      </button>
      {logout && <LogoutDialog onClose={() => setLogout(false)} />}
    </aside>
  );
}
