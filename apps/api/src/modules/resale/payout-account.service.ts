/**
 * The seller's payout account (spec section 4, Resell: "connect Stripe"): created on first use with
 * the payout provider, onboarded through the provider's embedded form (or the sandbox form), verified
 * only in Australia or New Zealand.
 */
import type { Database } from '../../db/client.js';
import type { Config } from '../../config.js';
import type { PayoutProvider } from '../../providers/payouts/payout.provider.js';
import { AppError } from '../../lib/app-error.js';
import { resaleRepository as repo } from './resale.repository.js';

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
   * POST /resell/stripe-connect: creates the payout account if needed and returns an onboarding client secret.
   * @throws AppError `api.resell.not_supported_country` (400) outside AU/NZ.
   */
  async function connect(userId: number, country = 'AU'): Promise<{ clientSecret: string }> {
    if (!config.resaleCountries.includes(country)) throw new AppError('api.resell.not_supported_country');
    let account = await repo.payoutAccount(db, userId);
    if (!account) {
      const { externalId } = await payouts.createAccount({ email: await deps.userEmail(userId), country });
      await repo.insertPayoutAccount(db, {
        userId,
        provider: payouts.kind,
        externalId,
        country,
        status: 'PENDING',
        createdAt: now(),
      });
      account = (await repo.payoutAccount(db, userId))!;
    }
    return { clientSecret: await payouts.createAccountSession(account.externalId) };
  }

  return {
    connect,

    /**
     * GET /resell/stripe (the payout tab polls it): the stored account state, kept current by the provider's
     * `account.updated` webhooks; no call to the provider. `clientSecret` is always '' here: an account
     * session is made only when the embedded onboarding is opened (POST /resell/stripe-connect), since each
     * one is a billable single-use secret (decision 018). `started` says whether a payout account exists.
     */
    async accountState(userId: number): Promise<{ clientSecret: string; started: boolean; verified: boolean }> {
      const account = await repo.payoutAccount(db, userId);
      return { clientSecret: '', started: Boolean(account), verified: account?.status === 'VERIFIED' };
    },

    /**
     * The sandbox onboarding form (POST /resell/sandbox-onboarding): the route validates what Stripe would
     * collect (country, names, date of birth, bank account); the sandbox keeps only the country, since no
     * real payout is ever made, and marks the account verified.
     * With Stripe configured there is no sandbox: only Stripe's own onboarding verifies an account (its
     * `account.updated` webhook), so the route answers as a route that does not exist (issue 39, fifteenth re-run:
     * it marked a Stripe-mode account verified without Stripe's checks).
     * @throws AppError `api.resell.not_supported_country` (400) outside AU/NZ, `api.not_found` (404) in Stripe mode.
     */
    async sandboxOnboard(userId: number, input: { country: string }): Promise<void> {
      if (payouts.kind !== 'sandbox') throw new AppError('api.not_found');
      if (!config.resaleCountries.includes(input.country)) throw new AppError('api.resell.not_supported_country');
      await connect(userId, input.country);
      await repo.setPayoutAccountStatus(
        db,
        { userId },
        { status: 'VERIFIED', country: input.country, verifiedAt: now() },
      );
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
