/**
 * The panel root: runs the router's effects (useRouteSync, once), routes PANEL_TAB to a lazily loaded screen inside the frame, opens the HUB
 * overlay, and hosts the toasts (top-right, 5 s; spec section 9).
 */
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useTranslation } from 'react-i18next';
import { TOAST_AUTO_CLOSE_MS, type PanelTab } from '@tp/contract/constants';
import { AUTH_TABS } from '../lib/routing';
import { useRoute } from '../lib/use-route';
import { useRouteSync } from './use-route-sync';
import { useOfflineApp } from './use-offline-app';
import { Frame } from './layout';
import { useTheme } from '../lib/theme';
import { Loading } from '../ui/bits';
import { Toasts } from '../lib/toast';

const SCREENS: Record<PanelTab, LazyExoticComponent<ComponentType>> = {
  LOGIN: lazy(() => import('../features/auth/components/login-screen')),
  OTP: lazy(() => import('../features/auth/components/otp-screen')),
  PERSONAL_DATA: lazy(() => import('../features/auth/components/personal-data-screen')),
  QR: lazy(() => import('../features/qr/components/qr-screen')),
  MY_TICKET: lazy(() => import('../features/tickets/components/my-tickets-screen')),
  TICKET: lazy(() => import('../features/tickets/components/ticket-screen')),
  GIFT: lazy(() => import('../features/gift/components/gift-screen')),
  SWAP: lazy(() => import('../features/swap/components/swap-screen')),
  RESELL: lazy(() => import('../features/resell/components/resell-screen')),
  REDEEM: lazy(() => import('../features/redeem/components/redeem-screen')),
  SETTINGS: lazy(() => import('../features/settings/components/settings-screen')),
};

// The hub is opened over a screen, never on the first paint: its code loads on demand.
const HubOverlay = lazy(() =>
  import('../features/hub/components/hub-overlay').then((m) => ({ default: m.HubOverlay })),
);

export function App() {
  useRouteSync();
  useOfflineApp();
  const route = useRoute();
  const { t } = useTranslation();
  const { theme } = useTheme();
  const Screen = SCREENS[route.tab];
  const auth = AUTH_TABS.includes(route.tab);
  return (
    <>
      <Frame auth={auth}>
        <Suspense fallback={<Loading label={t('common.loading')} />}>
          <Screen key={route.tab} />
        </Suspense>
      </Frame>
      {route.overlay === 'HUB' && !auth && (
        <Suspense fallback={null}>
          <HubOverlay />
        </Suspense>
      )}
      <Toasts position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} theme={theme} newestOnTop closeOnClick />
    </>
  );
}
