/**
 * The Stripe path of a payout account's set-up (used when the config carries a publishable key): choose the country,
 * then Stripe's embedded onboarding (ui/payout-stripe, loaded lazily, only once started), opened with the client
 * secret `connect(country)` answers: a holder's POST /v1/resell/stripe-connect on the panel's payout tab, an
 * organisation's POST /v1/org/payout-account in the console (issue 45). Texts `payout.*` of the catalogue in use.
 */
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from './bits';
import { Button } from './button';
import { PayoutCountryField } from './payout-country-field';
import './payout.css';

const PayoutStripe = lazy(() => import('./payout-stripe'));

export function PayoutStripeOnboarding(props: {
  publishableKey: string;
  /** True once onboarding started (the country is then the account's: no select). */
  started: boolean;
  /** The onboarding's client secret for an account in `country` (ISO 3166-1 alpha-2). */
  connect: (country: string) => Promise<string>;
  /** Told when `connect` fails (the caller says why) and when it succeeds (null: clear what it said). */
  onError: (err: unknown) => void;
  /** Stripe's onboarding was left: the caller reads the account's state again. */
  onExit: () => void;
  /** Shown above the button: the caller's error text. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [country, setCountry] = useState<string>('AU');
  const [secret, setSecret] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const start = async () => {
    setPending(true);
    try {
      setSecret(await props.connect(country));
      props.onError(null);
    } catch (e) {
      props.onError(e);
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
          fetchClientSecret={() => props.connect(country)}
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
      {props.children}
      <Button loading={pending} onClick={() => void start()}>
        {props.started ? t('payout.continue_verification') : t('payout.start_verification')}
      </Button>
    </div>
  );
}
