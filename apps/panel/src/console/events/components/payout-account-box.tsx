/**
 * The organisation's payout account on an event's exchange page (issue 45, decision 042 "As built (organisation
 * payouts)"): the tickets the organiser releases are paid to it, so a release waits until it is verified. Verified:
 * one line saying so. Not verified: that releases wait for it, and its set-up: Stripe's embedded onboarding when the
 * deployment has a Stripe publishable key (ui/payout-stripe-onboarding), else the sandbox form
 * (ui/payout-sandbox-form), both shared with the holder's payout tab. A staff member, whom the API answers 403
 * `api.org.role_forbidden`, is told an owner sets it up. Loading and other errors: `QueryState`.
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import { PayoutSandboxForm } from '../../../ui/payout-sandbox-form';
import { PayoutStripeOnboarding } from '../../../ui/payout-stripe-onboarding';
import { ApiError } from '../../api';
import { QueryState } from '../../query-state';
import { ErrorBlock } from '../../server-errors';
import {
  connectOrgPayoutAccount,
  useOrgSandboxOnboarding,
  useStripeKey,
  type OrgPayoutAccount,
} from '../api/payout-account.api';

/** True when the account's state was refused to this member: only owners see it (staff: 403). */
const notOwner = (query: Pick<UseQueryResult, 'error'>) =>
  query.error instanceof ApiError && query.error.message === 'api.org.role_forbidden';

export function PayoutAccountBox({ account }: { account: UseQueryResult<OrgPayoutAccount> }) {
  const { t } = useTranslation();
  let body: ReactNode;
  if (notOwner(account)) body = <p className="muted">{t('console.payout.owner_only')}</p>;
  else if (!account.data) body = <QueryState query={account} />;
  else if (account.data.verified)
    body = (
      <p className="muted" data-testid="payout-verified">
        {t('console.payout.verified')}
      </p>
    );
  else
    body = (
      <>
        <p className="muted">{t('console.payout.not_verified')}</p>
        <SetUp started={account.data.started ?? false} onExit={() => void account.refetch()} />
      </>
    );
  return (
    <section className="card stack payout-box" aria-labelledby="payout-account-title">
      <h2 id="payout-account-title">{t('console.payout.title')}</h2>
      {body}
    </section>
  );
}

/** Stripe's onboarding with a publishable key, else the sandbox form; their errors in the console's words. */
function SetUp({ started, onExit }: { started: boolean; onExit: () => void }) {
  const key = useStripeKey();
  const [connectError, setConnectError] = useState<unknown>(null);
  const sandbox = useOrgSandboxOnboarding({});
  if (key.data === undefined) return <QueryState query={key} />;
  if (key.data)
    return (
      <PayoutStripeOnboarding
        publishableKey={key.data}
        started={started}
        connect={connectOrgPayoutAccount}
        onError={setConnectError}
        onExit={onExit}
      >
        <ErrorBlock error={connectError} />
      </PayoutStripeOnboarding>
    );
  return (
    <PayoutSandboxForm onSubmit={(v) => sandbox.mutateAsync(v)}>
      <ErrorBlock error={sandbox.error} />
    </PayoutSandboxForm>
  );
}
