/**
 * Settings payout tab (spec sections 2 Settings, 5, 6, 9; SETTINGS_TAB=ACCOUNT_VERIFICATION): the payout
 * account that resale needs. Reads GET /v1/resell/stripe (never cached). When the config has a Stripe
 * publishable key, a verification button starts Stripe's embedded onboarding (loaded lazily, only here);
 * otherwise our sandbox onboarding form sits in the same place. A verified account shows a verified state.
 * Below, the seller's earnings (GET /v1/resell/earnings, issue 13).
 */
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clearToastErrors, toast } from '../../../lib/toast';
import { errorKey } from '../../../lib/api-client';
import { usePanelConfig } from '../../../lib/queries';
import { navigate } from '../../../lib/use-route';
import { Button } from '../../../ui/button';
import { Loading, Skeleton, ErrorState } from '../../../ui/bits';
import { ShieldIcon } from '../../../ui/icons';
import { usePayoutAccount } from '../../../lib/payout-account';
import { resellReturnRoute } from '../../../lib/resell-draft';
import { connectPayoutAccount } from '../api/payout-account.api';
import { PayoutCountryField } from './payout-country-field';
import { PayoutSandboxForm } from './payout-sandbox-form';
import { PayoutEarnings } from './payout-earnings';
import '../payout.css';

const PayoutStripe = lazy(() => import('./payout-stripe'));

function Verified() {
  const { t } = useTranslation();
  return (
    <div className="payout-verified" role="status">
      <span className="payout-verified__icon">
        <ShieldIcon />
      </span>
      <h2 className="section-title">{t('payout.verified_title')}</h2>
      <p className="muted">{t('payout.verified_text')}</p>
      {/* Back to the resale form as it was left for this tab (issue 23), else to an empty one. */}
      <Button onClick={() => navigate(resellReturnRoute())}>{t('payout.go_resell')}</Button>
    </div>
  );
}

/** The Stripe path: choose the country, then the embedded onboarding. */
function StripeOnboarding(props: { publishableKey: string; started: boolean; onExit: () => void }) {
  const { t } = useTranslation();
  const [country, setCountry] = useState<string>('AU');
  const [secret, setSecret] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const start = async () => {
    setPending(true);
    try {
      setSecret(await connectPayoutAccount(country));
      clearToastErrors(connectPayoutAccount);
    } catch (e) {
      toast.error(t(errorKey(e)), { action: connectPayoutAccount });
    } finally {
      setPending(false);
    }
  };
  if (secret) {
    return (
      <Suspense fallback={<Loading label={t('common.loading')} />}>
        <PayoutStripe
          publishableKey={props.publishableKey}
          clientSecret={secret}
          country={country}
          onExit={() => {
            setSecret(null);
            props.onExit();
          }}
        />
      </Suspense>
    );
  }
  return (
    <div className="stack payout-form">
      <p className="muted">{props.started ? t('payout.stripe_pending') : t('payout.stripe_text')}</p>
      {!props.started && (
        <PayoutCountryField id="payout-country" value={country} onChange={(e) => setCountry(e.target.value)} />
      )}
      <Button loading={pending} onClick={() => void start()}>
        {props.started ? t('payout.continue_verification') : t('payout.start_verification')}
      </Button>
    </div>
  );
}

export function PayoutTab() {
  const { t } = useTranslation();
  const config = usePanelConfig();
  const account = usePayoutAccount();

  let body: React.ReactNode;
  if (account.isLoading || !config)
    body = (
      <div className="stack" aria-busy="true">
        <Skeleton height={20} width="50%" />
        <Skeleton height={46} radius={12} />
        <Skeleton height={46} radius={12} />
        <Skeleton height={46} radius={12} />
      </div>
    );
  else if (account.isError || !account.data)
    body = <ErrorState message={t(errorKey(account.error))} onRetry={account.refetch} />;
  else if (account.data.verified) body = <Verified />;
  else if (config.stripePublishableKey)
    body = (
      <StripeOnboarding
        publishableKey={config.stripePublishableKey}
        started={account.data.started ?? account.data.clientSecret !== ''}
        onExit={() => void account.refetch()}
      />
    );
  else body = <PayoutSandboxForm />;

  return (
    <section className="stack payout" aria-labelledby="payout-title">
      <header className="stack-sm">
        <h2 id="payout-title" className="payout__title">
          {t('payout.title')}
        </h2>
        <p className="muted">{t('payout.subtitle')}</p>
      </header>
      {body}
      <PayoutEarnings />
    </section>
  );
}
