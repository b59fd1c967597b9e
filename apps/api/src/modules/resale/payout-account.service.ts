/**
 * The seller's payout account (spec section 4, Resell: "connect Stripe"): created on first use with
 * the payout provider, onboarded through the provider's embedded form (or the sandbox form), verified
 * only in Australia or New Zealand. An organisation's payout account (issue 45: the tickets it releases into its
 * exchange queue are paid to it) is opened, onboarded and verified the same way.
 */
import type { Database } from '../../db/client.js';
import type { Config } from '../../config.js';
import type { PayoutProvider } from '../../providers/payouts/payout.provider.js';
import { AppError } from '../../lib/app-error.js';
import { resaleRepository as repo, type Payee } from './resale.repository.js';

/** The settings the payout-account service reads: the countries a payout account can be opened in. */
export type PayoutAccountConfig = Pick<Config, 'resaleCountries'>;

export interface PayoutAccountDeps {
  database: Database;
  config: PayoutAccountConfig;
  payouts: PayoutProvider;
  now: () => Date;
  userEmail: (userId: number) => Promise<string>;
}

export function createPayoutAccountService(deps: PayoutAccountDeps) {
  const { config, payouts, now } = deps;
  const db = deps.database.db;

  /**
   * Creates `payee`'s payout account with the provider if it has none and returns an onboarding client secret
   * (POST /resell/stripe-connect for a holder, POST /org/payout-account for an organisation).
   * @throws AppError `api.resell.not_supported_country` (400) outside AU/NZ, `api.service_unavailable` (503) when
   *   the provider does not answer.
   */
  async function connect(payee: Payee, country = 'AU'): Promise<{ clientSecret: string }> {
    if (!config.resaleCountries.includes(country)) throw new AppError('api.resell.not_supported_country');
    let account = await repo.payoutAccount(db, payee);
    if (!account) {
      const email = 'userId' in payee ? await deps.userEmail(payee.userId) : undefined;
      const { externalId } = await payouts.createAccount({ email, country });
      await repo.insertPayoutAccount(db, payee, {
        provider: payouts.kind,
        externalId,
        country,
        status: 'PENDING',
        createdAt: now(),
      });
      account = (await repo.payoutAccount(db, payee))!;
    }
    return { clientSecret: await payouts.createAccountSession(account.externalId) };
  }

  return {
    connect,

    /**
     * GET /resell/stripe (the payout tab polls it) and GET /org/payout-account: the stored account state, kept
     * current by the provider's `account.updated` webhooks; no call to the provider. `clientSecret` is always '' here:
     * an account session is made only when the embedded onboarding is opened (`connect`), since each one is a
     * billable single-use secret (decision 018). `started` says whether a payout account exists.
     */
    async accountState(payee: Payee): Promise<{ clientSecret: string; started: boolean; verified: boolean }> {
      const account = await repo.payoutAccount(db, payee);
      return { clientSecret: '', started: Boolean(account), verified: account?.status === 'VERIFIED' };
    },

    /**
     * The sandbox onboarding form (POST /resell/sandbox-onboarding, POST /org/payout-account/sandbox-onboarding):
     * the route validates what Stripe would collect (country, names, date of birth, bank account); the sandbox keeps
     * only the country, since no real payout is ever made, and marks the account verified.
     * With Stripe configured there is no sandbox: only Stripe's own onboarding verifies an account (its
     * `account.updated` webhook), so the route answers as a route that does not exist (issue 39, fifteenth re-run:
     * it marked a Stripe-mode account verified without Stripe's checks).
     * @throws AppError `api.resell.not_supported_country` (400) outside AU/NZ, `api.not_found` (404) in Stripe mode.
     */
    async sandboxOnboard(payee: Payee, input: { country: string }): Promise<void> {
      if (payouts.kind !== 'sandbox') throw new AppError('api.not_found');
      if (!config.resaleCountries.includes(input.country)) throw new AppError('api.resell.not_supported_country');
      await connect(payee, input.country);
      await repo.setPayoutAccountStatus(db, payee, { status: 'VERIFIED', country: input.country, verifiedAt: now() });
    },

    /**
     * The provider says an account changed (`account.updated`): verified when the provider can pay it
     * out and its country is one resale supports, else back to PENDING.
     */
    async accountUpdated(event: { accountId: string; verified: boolean; country: string | null }): Promise<void> {
      const ok = event.verified && (!event.country || config.resaleCountries.includes(event.country));
      await repo.setPayoutAccountStatus(
        db,
        { externalId: event.accountId },
        { status: ok ? 'VERIFIED' : 'PENDING', country: event.country, verifiedAt: ok ? now() : null },
      );
    },
  };
}
export type PayoutAccountService = ReturnType<typeof createPayoutAccountService>;
