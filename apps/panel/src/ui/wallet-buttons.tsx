/**
 * "Add to Apple Wallet" and "Add to Google Wallet" (issue 22, decision 029) on the ticket page and the QR screen:
 * black badges laid out as the platforms' brand guides draw them (a wallet mark, a small "Add to" line above the
 * wallet's name), each shown only when the operator configured that wallet (`/v1/config` `wallets`). Loaded
 * lazily (React.lazy) by the screens that show it. Apple: the signed `.pkpass` is fetched with the holder's token
 * and opened (Safari hands it to Wallet); Google: the save link is fetched and followed. A pass not issued yet
 * (`api.wallet.not_yet_available`, with `revealAt`) or any other failure is a toast.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { client, errorKey, ApiError } from '../lib/api-client';
import { formatWhen } from '../lib/format';
import { usePanelConfig } from '../lib/queries';
import { toast } from '../lib/toast';
import './wallet-buttons.css';

/** The wallet mark: stacked cards in a wallet, in the badge's white (not the platforms' own logos). */
function WalletMark() {
  return (
    <svg className="wallet-badge__mark" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="2" y="4" width="20" height="16" rx="3" fill="none" stroke="currentColor" strokeWidth="1.8" />
      <path d="M2 9h20M2 13h20" stroke="currentColor" strokeWidth="1.8" />
      <circle cx="17" cy="16.5" r="1.4" fill="currentColor" />
    </svg>
  );
}

function Badge(props: { top: string; name: string; label: string; busy: boolean; onClick: () => void }) {
  return (
    <button
      type="button"
      className="wallet-badge"
      aria-label={props.label}
      aria-busy={props.busy}
      disabled={props.busy}
      onClick={props.onClick}
    >
      <WalletMark />
      <span className="wallet-badge__text" aria-hidden="true">
        <span className="wallet-badge__top">{props.top}</span>
        <span className="wallet-badge__name">{props.name}</span>
      </span>
    </button>
  );
}

/** The configured wallets' badges for one held ticket; nothing when neither wallet is configured. */
export default function WalletButtons(props: { userTicketId: number; timeZone?: string }) {
  const { t } = useTranslation();
  const config = usePanelConfig();
  const [busy, setBusy] = useState<'apple' | 'google' | null>(null);
  const wallets = config?.wallets;
  if (!wallets || (!wallets.apple && !wallets.google)) return null;

  const fail = (err: unknown) => {
    const key = errorKey(err);
    const revealAt = err instanceof ApiError ? (err.body.revealAt as string | undefined) : undefined;
    toast.error(t(key, revealAt ? { revealAt: formatWhen(revealAt, props.timeZone) } : {}));
  };
  const run = (which: 'apple' | 'google', work: () => Promise<void>) => () => {
    setBusy(which);
    work()
      .catch(fail)
      .finally(() => setBusy(null));
  };
  const apple = run('apple', async () => {
    const pass: Blob = await client.GET('/v1/tickets/{userTicketId}/wallet/apple', {
      params: { path: { userTicketId: props.userTicketId } },
      parseAs: 'blob',
    });
    const url = URL.createObjectURL(new Blob([pass], { type: 'application/vnd.apple.pkpass' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `ticket-${props.userTicketId}.pkpass`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  });
  const google = run('google', async () => {
    const { saveUrl } = await client.GET('/v1/tickets/{userTicketId}/wallet/google', {
      params: { path: { userTicketId: props.userTicketId } },
    });
    window.open(saveUrl, '_blank', 'noopener');
  });
  return (
    <div className="wallet-badges" role="group" aria-label={t('wallet.label')}>
      {wallets.apple && (
        <Badge
          top={t('wallet.apple_top')}
          name={t('wallet.apple')}
          label={t('wallet.apple_full')}
          busy={busy === 'apple'}
          onClick={apple}
        />
      )}
      {wallets.google && (
        <Badge
          top={t('wallet.google_top')}
          name={t('wallet.google')}
          label={t('wallet.google_full')}
          busy={busy === 'google'}
          onClick={google}
        />
      )}
    </div>
  );
}
