/**
 * The console's frame (issue 21, decision 024): sign-in by e-mail code, the organisation choice when the account
 * is a member of several, then the screens the member's role opens (contract `ORG_AREA_ROLES`).
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ORG_AREA_ROLES, type Membership } from '@tp/contract';
import { setThemeMode, useTheme } from '../lib/theme';
import { Button } from '../ui/button';
import { memberships, openOrganisation, rememberedOrganisation, resume, signOut } from './api';
import { SignIn } from './sign-in';
import { EventsScreen } from './events';
import { HoldersScreen } from './holders';
import { ImportScreen } from './import';
import { BrandingScreen } from './branding';
import { MembersScreen } from './members';
import { ActivityScreen } from './activity';
import { KeysScreen } from './keys';
import { WebhooksScreen } from './webhooks';

type Screen = 'events' | 'holders' | 'import' | 'webhooks' | 'keys' | 'branding' | 'members' | 'activity';
const SCREENS: { id: Screen; area: keyof typeof ORG_AREA_ROLES }[] = [
  { id: 'events', area: 'events' },
  { id: 'holders', area: 'events' },
  { id: 'import', area: 'events' },
  { id: 'webhooks', area: 'events' },
  { id: 'keys', area: 'door' },
  { id: 'branding', area: 'owner' },
  { id: 'members', area: 'owner' },
  { id: 'activity', area: 'owner' },
];

type State =
  | { step: 'loading' }
  | { step: 'sign-in' }
  | { step: 'choose'; options: Membership[] }
  | { step: 'open'; membership: Membership };

export function ConsoleApp() {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<State>({ step: 'loading' });
  const [screen, setScreen] = useState<Screen>('events');

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

  const otherLang = i18n.language === 'es' ? 'en' : 'es';
  const { theme } = useTheme();
  const header = (
    <header className="topbar">
      <span className="topbar__title">
        {state.step === 'open' ? `${state.membership.name} · ${t('console.title')}` : t('console.title')}
      </span>
      <a href={`?lang=${otherLang}`} lang={otherLang}>
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

  const role = state.membership.role;
  const open = SCREENS.filter((s) => (ORG_AREA_ROLES[s.area] as readonly string[]).includes(role));
  const current = open.some((s) => s.id === screen) ? screen : open[0]?.id;
  return (
    <>
      {header}
      <nav className="nav" aria-label={t('console.nav_label')}>
        {open.map((s) => (
          <button
            key={s.id}
            type="button"
            aria-current={current === s.id ? 'page' : undefined}
            onClick={() => setScreen(s.id)}
          >
            {t(`console.nav.${s.id}`)}
          </button>
        ))}
      </nav>
      <main>
        {current === 'events' && <EventsScreen />}
        {current === 'holders' && <HoldersScreen />}
        {current === 'import' && <ImportScreen />}
        {current === 'branding' && <BrandingScreen slug={state.membership.slug} />}
        {current === 'members' && <MembersScreen />}
        {current === 'webhooks' && <WebhooksScreen />}
        {current === 'keys' && <KeysScreen owner={(ORG_AREA_ROLES.owner as readonly string[]).includes(role)} />}
        {current === 'activity' && <ActivityScreen />}
        {!current && <p>{t('console.door_only')}</p>}
      </main>
    </>
  );
}
