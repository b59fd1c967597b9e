/**
 * Page frame (spec sections 1, 2 Layout): header with the organisation's name, logo and website
 * (falling back to the product name), the get-the-app button and the avatar; the content column
 * (max 640 px); the footer with the language selector, the theme choice and a footnote.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@tp/contract/constants';
import { usePanelConfig, useUser } from '../lib/queries';
import { useSignedIn } from '../lib/session';
import { useAccountLanguage } from '../lib/profile';
import { assetUrl } from '../lib/asset-url';
import { pathWithLang } from '../lib/i18n';
import { rememberEmbedLanguage } from '../lib/embed-language';
import { closePanel, embedMode } from '../lib/host-bridge';
import { Avatar } from '../ui/avatar';
import { OrgLogo } from '../ui/org-logo';
import { PhoneIcon } from '../ui/icon';
import { HUB_SHEET, navigate } from '../lib/use-route';
import { setThemeMode, useTheme, type ThemeMode } from '../lib/theme';

/**
 * The origin of the page the person is on: the host page's (the loader passes it as `hostOrigin`) when
 * embedded, else this document's. Read once, like the bridge does.
 */
const HOST_ORIGIN = (() => {
  if (embedMode !== 'standalone') {
    try {
      return new URL(new URLSearchParams(window.location.search).get('hostOrigin') ?? '').origin;
    } catch {
      /* fall through */
    }
  }
  return window.location.origin;
})();

/** True when `siteUrl` is on the host page's origin (the product's own site). */
export function isOwnSite(siteUrl: string, hostOrigin = HOST_ORIGIN): boolean {
  try {
    return new URL(siteUrl).origin === hostOrigin;
  } catch {
    return false;
  }
}

export function Header() {
  const { t, i18n } = useTranslation();
  const config = usePanelConfig();
  const signedIn = useSignedIn();
  const user = useUser().data;
  // The account's mails follow the language of the panel in use (issue 29).
  useAccountLanguage(signedIn ? user : undefined, i18n.language);
  const { theme } = useTheme();
  const name = config?.orgName ?? config?.productName ?? '';
  // Logo (spec section 2): closes the panel; in dark mode the tab parameter is cleared first.
  const onLogo = () => {
    if (theme === 'dark') navigate({ tab: null as never, overlay: null }, { replace: true });
    closePanel();
  };
  // Get the app (spec section 2): on the product's own site close the panel, else open the public site with
  // the language segment in a new window. Standalone there is no panel to close: the site opens.
  const onGetApp = () => {
    if (!config) return;
    if (embedMode !== 'standalone' && isOwnSite(config.productSiteUrl)) closePanel();
    else window.open(`${config.productSiteUrl.replace(/\/+$/, '')}/${i18n.language}/`, '_blank', 'noopener');
  };
  return (
    <header className="header">
      <div className="header__inner">
        <button type="button" className="header__brand" onClick={onLogo} aria-label={t('header.close_panel', { name })}>
          <OrgLogo size={36} />
          <span className="header__name">{name}</span>
        </button>
        {config?.orgWebsite && (
          <a className="header__site" href={config.orgWebsite} target="_blank" rel="noopener noreferrer">
            {config.orgWebsite.replace(/^https?:\/\//, '')}
          </a>
        )}
        <div className="header__actions">
          <button type="button" className="btn btn--ghost btn--small" onClick={onGetApp}>
            <PhoneIcon />
            <span>{t('header.get_app')}</span>
          </button>
          {signedIn && (
            <button
              type="button"
              className="header__avatar"
              aria-label={t('header.open_menu')}
              onClick={() => navigate({ overlay: 'HUB' }, { sheet: HUB_SHEET })}
            >
              <Avatar
                picture={assetUrl(user?.picture, config?.assetsBaseUrl)}
                givenName={user?.givenName}
                familyName={user?.familyName}
                size={36}
              />
            </button>
          )}
        </div>
      </div>
    </header>
  );
}

export function Footer() {
  const { t, i18n } = useTranslation();
  const { mode } = useTheme();
  const config = usePanelConfig();
  const changeLang = (lang: Locale) => {
    // Embedded, the host page sets the language on each load: remember the holder's choice (lib/embed-language).
    rememberEmbedLanguage(lang);
    window.location.assign(`${pathWithLang(window.location.pathname, lang)}${window.location.search}`);
  };
  return (
    <footer className="footer">
      <div className="footer__row">
        <label className="footer__select">
          <span>{t('footer.language')}</span>
          <select value={i18n.language} onChange={(e) => changeLang(e.target.value as Locale)}>
            {LOCALES.map((l) => (
              <option key={l} value={l}>
                {t(`footer.lang_${l}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="footer__select">
          <span>{t('footer.theme')}</span>
          <select value={mode} onChange={(e) => setThemeMode(e.target.value as ThemeMode)}>
            {(['light', 'dark', 'system'] as const).map((m) => (
              <option key={m} value={m}>
                {t(`footer.theme_${m}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="footer__note">{t('footer.note', { product: config?.productName ?? '' })}</p>
    </footer>
  );
}

/**
 * The page (spec section 2 Layout): header, content column, footer. The light theme shows the auth card
 * inside the page with header and footer; the dark theme shows only the card. `aside`: the side menu of
 * wide screens, beside the content. `notices`: the toasts, in the content column: on a phone at its top, in the
 * screen's flow (issue 23: they push it down instead of covering its heading or a field); from the tablet
 * breakpoint up fixed top-right under the header (spec section 9; styles.css, decision 037).
 */
export function Frame(props: { auth: boolean; aside?: ReactNode; notices?: ReactNode; children: ReactNode }) {
  const { theme } = useTheme();
  const bare = props.auth && theme === 'dark';
  const main = (
    <main className="content" id="main">
      {props.notices}
      {props.children}
    </main>
  );
  return (
    <div className={`page ${props.auth ? 'page--auth' : ''}`}>
      {!bare && <Header />}
      {/* One tree with or without the side menu: the menu appearing (signed in, the first screen drawn) or going
          never remounts the screen and loses what it holds (a half-filled form, the "Ticket gifted!" page). */}
      <div className={props.aside ? 'page__body' : 'page__plain'}>
        {props.aside}
        {main}
      </div>
      {!bare && <Footer />}
    </div>
  );
}
