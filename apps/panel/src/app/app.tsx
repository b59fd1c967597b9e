/**
 * The panel root: runs the router's effects (useRouteSync, once), routes PANEL_TAB to a lazily loaded screen inside the frame, opens the HUB
 * overlay, shows the side menu beside signed-in screens on wide screens, and hosts the toasts (top-right, 5 s;
 * spec section 9).
 */
import {
  lazy,
  Suspense,
  useEffect,
  useState,
  useSyncExternalStore,
  type ComponentType,
  type LazyExoticComponent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { TOAST_AUTO_CLOSE_MS, type PanelTab } from '@tp/contract/constants';
import { AUTH_TABS } from '../lib/routing';
import { loadLaterTexts } from '../lib/i18n';
import { useRoute } from '../lib/use-route';
import { useRouteSync } from './use-route-sync';
import { useOfflineApp } from './use-offline-app';
import { useDocumentTitle } from './document-title';
import { Frame } from './layout';
import { useTheme } from '../lib/theme';
import { Loading } from '../ui/bits';
import { Toasts } from '../lib/toast';
import { useSignedIn } from '../lib/session';
import { firstScreenDrawn, markFirstScreenDrawn } from '../lib/first-screen';

/** A screen past LOGIN: its code and the later texts (lib/i18n.ts) load together. */
const withLaterTexts = (load: () => Promise<{ default: ComponentType }>) =>
  lazy(() => Promise.all([load(), loadLaterTexts()]).then(([screen]) => screen));

const SCREENS: Record<PanelTab, LazyExoticComponent<ComponentType>> = {
  LOGIN: lazy(() => import('../features/auth/components/login-screen')),
  OTP: withLaterTexts(() => import('../features/auth/components/otp-screen')),
  PERSONAL_DATA: withLaterTexts(() => import('../features/auth/components/personal-data-screen')),
  QR: withLaterTexts(() => import('../features/qr/components/qr-screen')),
  MY_TICKET: withLaterTexts(() => import('../features/tickets/components/my-tickets-screen')),
  TICKET: withLaterTexts(() => import('../features/tickets/components/ticket-screen')),
  GIFT: withLaterTexts(() => import('../features/gift/components/gift-screen')),
  SWAP: withLaterTexts(() => import('../features/swap/components/swap-screen')),
  RESELL: withLaterTexts(() => import('../features/resell/components/resell-screen')),
  REDEEM: withLaterTexts(() => import('../features/redeem/components/redeem-screen')),
  SETTINGS: withLaterTexts(() => import('../features/settings/components/settings-screen')),
};

// The hub is opened over a screen, never on the first paint: its code loads on demand.
const HubOverlay = lazy(() =>
  import('../features/hub/components/hub-overlay').then((m) => ({ default: m.HubOverlay })),
);

// What only a signed-in panel does (issue 20): the persisted ticket lists and the personal-data prompt.
const SignedInEffects = lazy(() => import('./signed-in-effects'));

// The side menu of wide screens (spec section 9), with the hub's code: loaded from 1025 px only (its CSS shows
// it there), so a phone's start carries none of the hub (issue 30).
const SideMenu = lazy(() => import('../features/hub/components/hub-overlay').then((m) => ({ default: m.SideMenu })));
const WIDE = '(min-width: 1025px)';
const subscribeWide = (l: () => void) => {
  const media = window.matchMedia?.(WIDE);
  media?.addEventListener('change', l);
  return () => media?.removeEventListener('change', l);
};
const useWide = () =>
  useSyncExternalStore(
    subscribeWide,
    () => window.matchMedia?.(WIDE).matches ?? true,
    () => true,
  );

/** False until the first QR is drawn (lib/first-screen.ts); true at once for any other start. */
function useFirstScreenDrawn(): boolean {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    let live = true;
    void firstScreenDrawn.then(() => live && setDrawn(true));
    return () => {
      live = false;
    };
  }, []);
  return drawn;
}

export function App() {
  useRouteSync();
  useDocumentTitle();
  const afterFirstScreen = useFirstScreenDrawn();
  useOfflineApp(afterFirstScreen);
  const wide = useWide();
  const route = useRoute();
  const { t } = useTranslation();
  const { theme } = useTheme();
  const signedIn = useSignedIn();
  const Screen = SCREENS[route.tab];
  // Any screen but QR is the first screen once shown (the QR screen says so itself, features/qr).
  useEffect(() => {
    if (route.tab !== 'QR') markFirstScreenDrawn();
  }, [route.tab]);
  const auth = AUTH_TABS.includes(route.tab);
  const aside =
    signedIn && !auth && wide && afterFirstScreen ? (
      <Suspense fallback={null}>
        <SideMenu />
      </Suspense>
    ) : null;
  return (
    <>
      <Frame
        auth={auth}
        aside={aside}
        notices={
          <Toasts
            position="top-right"
            autoClose={TOAST_AUTO_CLOSE_MS}
            theme={theme}
            newestOnTop
            closeOnClick
            texts={{ region: t('toast.region'), close: t('toast.close'), timer: t('toast.timer') }}
          />
        }
      >
        <Suspense fallback={<Loading label={t('common.loading')} />}>
          <Screen key={route.tab} />
        </Suspense>
      </Frame>
      {route.overlay === 'HUB' && !auth && (
        <Suspense fallback={null}>
          <HubOverlay />
        </Suspense>
      )}
      {signedIn && afterFirstScreen && (
        <Suspense fallback={null}>
          <SignedInEffects />
        </Suspense>
      )}
    </>
  );
}
