/**
 * Stripe's embedded onboarding (ConnectAccountOnboarding), loaded only where a payout account is set up (the
 * panel's payout tab, the console's exchange page for an organisation, issue 45) and only when the config carries a
 * publishable key; `fetchClientSecret` is that account's onboarding call (for a session's refresh). Uses `@stripe/connect-js/pure`, so Stripe's script is fetched
 * when this component mounts, never at import time. Styled with the theme's colours through
 * `appearance.variables`, updated when the theme changes.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadConnectAndInitialize, type StripeConnectInstance } from '@stripe/connect-js/pure';
import { ConnectAccountOnboarding, ConnectComponentsProvider } from '@stripe/react-connect-js';
import { useTheme } from '../lib/theme';

/** The panel's CSS variables as Connect appearance variables. */
function themeVariables() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim() || undefined;
  return {
    colorPrimary: v('--accent'),
    colorBackground: v('--surface'),
    colorText: v('--text'),
    colorSecondaryText: v('--muted'),
    colorBorder: v('--border'),
    colorDanger: v('--danger'),
    buttonPrimaryColorBackground: v('--accent'),
    buttonPrimaryColorText: v('--accent-text'),
    buttonPrimaryColorBorder: v('--accent'),
    buttonSecondaryColorBackground: v('--surface-2'),
    buttonSecondaryColorText: v('--text'),
    buttonSecondaryColorBorder: v('--border'),
    offsetBackgroundColor: v('--surface-2'),
    formBackgroundColor: v('--surface'),
    formHighlightColorBorder: v('--accent'),
    formAccentColor: v('--accent'),
    borderRadius: '12px',
    fontFamily: getComputedStyle(document.body).fontFamily,
  };
}

export default function PayoutStripe(props: {
  publishableKey: string;
  clientSecret: string;
  /** A new client secret of the same account (POST of the onboarding route), when Stripe asks for one. */
  fetchClientSecret: () => Promise<string>;
  onExit: () => void;
}) {
  const { i18n } = useTranslation();
  const { theme } = useTheme();
  // One Connect instance per mount, made with the first render's secret, secret source and language.
  const [instance] = useState<StripeConnectInstance>(() => {
    // The first secret comes from the tab; later ones (session refresh) from a new AccountSession.
    let first: string | null = props.clientSecret;
    return loadConnectAndInitialize({
      publishableKey: props.publishableKey,
      fetchClientSecret: () => {
        const secret = first;
        first = null;
        return secret ? Promise.resolve(secret) : props.fetchClientSecret();
      },
      appearance: { variables: themeVariables() },
      locale: i18n.language === 'es' ? 'es' : 'en-AU',
    });
  });
  useEffect(() => {
    instance.update({ appearance: { variables: themeVariables() } });
  }, [theme, instance]);
  return (
    <div className="payout-stripe">
      <ConnectComponentsProvider connectInstance={instance}>
        <ConnectAccountOnboarding onExit={props.onExit} />
      </ConnectComponentsProvider>
    </div>
  );
}
