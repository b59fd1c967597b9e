/**
 * Settings payout tab (spec sections 2 Settings, 5, 6, 9; SETTINGS_TAB=ACCOUNT_VERIFICATION): the payout
 * account that resale needs. Reads GET /v1/resell/stripe (never cached). When the config has a Stripe
 * publishable key, a verification button starts Stripe's embedded onboarding (ui/payout-stripe-onboarding, loaded
 * lazily); otherwise the sandbox onboarding form (ui/payout-sandbox-form) sits in the same place. A verified account shows a verified state.
 * Below, the seller's earnings (GET /v1/resell/earnings, issue 13).
 */
import { useTranslation } from 'react-i18next';
import { clearToastErrors, toast } from '../../../lib/toast';
import { errorKey } from '../../../lib/api-client';
import { usePanelConfig, useUser } from '../../../lib/queries';
import { navigate } from '../../../lib/use-route';
import { Button } from '../../../ui/button';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { ShieldIcon } from '../../../ui/icons';
import { usePayoutAccount } from '../../../lib/payout-account';
import { resellReturnRoute } from '../../../lib/resell-draft';
import { PayoutSandboxForm } from '../../../ui/payout-sandbox-form';
import { PayoutStripeOnboarding } from '../../../ui/payout-stripe-onboarding';
import { connectPayoutAccount, submitSandboxOnboarding, useSandboxOnboarding } from '../api/payout-account.api';
import { PayoutEarnings } from './payout-earnings';
import '../payout.css';

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

/** The holder's sandbox form: verifies with POST /v1/resell/sandbox-onboarding, says so (or why not) in a toast. */
function SandboxForm() {
  const { t } = useTranslation();
  const user = useUser().data;
  const submit = useSandboxOnboarding();
  return (
    <PayoutSandboxForm
      firstName={user?.givenName ?? ''}
      lastName={user?.familyName ?? ''}
      onSubmit={async (v) => {
        try {
          await submit.mutateAsync(v);
          toast.success(t('payout.verified_toast'));
        } catch (e) {
          toast.error(t(errorKey(e)), { action: submitSandboxOnboarding });
        }
      }}
    />
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
      <PayoutStripeOnboarding
        publishableKey={config.stripePublishableKey}
        started={account.data.started ?? account.data.clientSecret !== ''}
        connect={connectPayoutAccount}
        onError={(e) =>
          e ? toast.error(t(errorKey(e)), { action: connectPayoutAccount }) : clearToastErrors(connectPayoutAccount)
        }
        onExit={() => void account.refetch()}
      />
    );
  else body = <SandboxForm />;

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
