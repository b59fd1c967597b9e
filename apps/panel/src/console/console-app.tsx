/**
 * The console's frame (issue 21, decision 024): sign-in by e-mail code, the organisation choice when the account
 * is a member of several, then the screens the member's role opens (contract `ORG_AREA_ROLES`).
 */
import { useEffect, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CONSOLE_SCREENS,
  ORG_AREA_ROLES,
  otherLocale,
  type ConsoleScreen,
  type Locale,
  type Membership,
} from '@tp/contract';
import { langOf } from '@tp/contract/locale';
import { setThemeMode, useTheme } from '../lib/theme';
import { Button } from '../ui/button';
import { memberships, openOrganisation, rememberedOrganisation, resume, signOut } from './api';
import { SignIn } from './sign-in/components/sign-in';
import { StepUpHost } from './step-up/components/step-up-sheet';
import { EventsScreen } from './events/components/events-screen';
import { HoldersScreen } from './holders/components/holders-screen';
import { RefundsScreen } from './refunds/components/refunds-screen';
import { ImportScreen } from './import/components/import-screen';
import { BrandingScreen } from './branding/components/branding-screen';
import { MembersScreen } from './members/components/members-screen';
import { ActivityScreen } from './activity/components/activity-screen';
import { KeysScreen } from './keys/components/keys-screen';
import { WebhooksScreen } from './webhooks/components/webhooks-screen';
import { consoleHref, isPlainClick, navigate, screenRoute, useConsoleRoute, type ConsoleRoute } from './routing';

const SCREENS = Object.keys(CONSOLE_SCREENS) as ConsoleScreen[];

type State =
  | { step: 'loading' }
  | { step: 'sign-in' }
  | { step: 'choose'; options: Membership[] }
  | { step: 'open'; membership: Membership };

export function ConsoleApp() {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<State>({ step: 'loading' });
  // The screen is the URL's (routing.ts): a sign-in shows over it and leaves it alone, so a link opens its screen.
  const route = useConsoleRoute();

  /** After a sign-in: the one organisation, the one this tab had, or a choice. */
  async function afterSignIn() {
    const options = await memberships();
    const remembered = options.find((m) => m.organisationId === rememberedOrganisation());
    const only = remembered ?? (options.length === 1 ? options[0] : undefined);
    if (only) setState({ step: 'open', membership: await openOrganisation(only.organisationId) });
    else setState({ step: 'choose', options });
  }

  useEffect(() => {
    void resume().then((ok) => (ok ? afterSignIn() : setState({ step: 'sign-in' })));
  }, []);

  useEffect(() => {
    document.title = t('console.title');
  }, [t]);

  const otherLang = otherLocale(langOf(i18n.language));
  const { theme } = useTheme();
  const header = (
    <header className="topbar">
      <span className="topbar__title">
        {state.step === 'open' ? `${state.membership.name} · ${t('console.title')}` : t('console.title')}
      </span>
      <a href={otherLanguageHref(otherLang)} lang={otherLang}>
        {t('console.other_language')}
      </a>
      <Button variant="ghost" className="btn--small" onClick={() => setThemeMode(theme === 'dark' ? 'light' : 'dark')}>
        {theme === 'dark' ? t('console.theme_light') : t('console.theme_dark')}
      </Button>
      {state.step !== 'sign-in' && state.step !== 'loading' && (
        <Button
          variant="ghost"
          className="btn--small"
          onClick={() => void signOut().then(() => setState({ step: 'sign-in' }))}
        >
          {t('console.sign_out')}
        </Button>
      )}
    </header>
  );

  if (state.step === 'loading')
    return (
      <>
        {header}
        <main aria-busy="true" />
      </>
    );
  if (state.step === 'sign-in')
    return (
      <>
        {header}
        <main>
          <SignIn onSignedIn={afterSignIn} />
        </main>
      </>
    );
  if (state.step === 'choose')
    return (
      <>
        {header}
        <main>
          <section className="card narrow stack">
            <h1>{t('console.choose_title')}</h1>
            {state.options.length === 0 && <p>{t('console.no_organisation')}</p>}
            {state.options.map((m) => (
              <Button
                key={m.organisationId}
                variant="secondary"
                onClick={() =>
                  void openOrganisation(m.organisationId).then((membership) => setState({ step: 'open', membership }))
                }
              >
                {m.name} · {t(`console.role.${m.role}`)}
              </Button>
            ))}
          </section>
        </main>
      </>
    );

  return (
    <>
      {header}
      <Screens membership={state.membership} route={route} />
      <StepUpHost />
    </>
  );
}

/** This page's URL in the other language (the same screen: `?lang=` is read at start). */
function otherLanguageHref(lang: Locale): string {
  const search = new URLSearchParams(window.location.search);
  search.set('lang', lang);
  return `${window.location.pathname}?${search.toString()}`;
}

/** The navigation and the screen of the URL, among those the member's role opens (else the first of them). */
function Screens({ membership, route }: { membership: Membership; route: ConsoleRoute }) {
  const { t } = useTranslation();
  const role = membership.role;
  const open = SCREENS.filter((s) => (ORG_AREA_ROLES[CONSOLE_SCREENS[s]] as readonly string[]).includes(role));
  const current = route.screen && open.includes(route.screen) ? route.screen : open[0];
  // /console, an unknown path or a screen this role does not open: the URL is made the screen shown.
  useEffect(() => {
    if (current && route.screen !== current) navigate(screenRoute(current), { replace: true });
  }, [current, route.screen]);
  const go = (e: MouseEvent, screen: ConsoleScreen) => {
    if (!isPlainClick(e)) return;
    e.preventDefault();
    navigate(screenRoute(screen));
  };
  return (
    <>
      <nav className="nav" aria-label={t('console.nav_label')}>
        {open.map((s) => (
          <a
            key={s}
            href={consoleHref(screenRoute(s))}
            aria-current={current === s ? 'page' : undefined}
            onClick={(e) => go(e, s)}
          >
            {t(`console.nav.${s}`)}
          </a>
        ))}
      </nav>
      <main>
        {current === 'events' && route.screen === 'events' && <EventsScreen route={route} />}
        {current === 'holders' && route.screen === 'holders' && (
          <HoldersScreen event={route.event} ticket={route.ticket} />
        )}
        {current === 'refunds' && route.screen === 'refunds' && <RefundsScreen status={route.status} />}
        {current === 'import' && <ImportScreen />}
        {current === 'branding' && <BrandingScreen slug={membership.slug} />}
        {current === 'members' && <MembersScreen />}
        {current === 'webhooks' && route.screen === 'webhooks' && <WebhooksScreen endpoint={route.endpoint} />}
        {current === 'keys' && <KeysScreen owner={(ORG_AREA_ROLES.owner as readonly string[]).includes(role)} />}
        {current === 'activity' && <ActivityScreen />}
        {!current && <p>{t('console.door_only')}</p>}
      </main>
    </>
  );
}
