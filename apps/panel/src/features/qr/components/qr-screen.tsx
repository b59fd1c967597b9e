/**
 * QR (spec section 2): the entry QR image refreshed at the ttl, a 'learn more' full-screen modal with
 * three points, a keep-it-private note and a 'need help' box linking to the help centre.
 * Issue 10: the pass keeps rotating offline (codes signed on the device, pass/use-pass.ts) and the
 * screen says what it shows: a countdown to the next code, an offline notice, an error with a retry,
 * and a stale state when the offline pass has expired.
 * Issue 20: with no device pass (the embed where the browser allows none) the last server code stays with a
 * countdown of how long the door still takes it, then the screen says it needs signal; and the pass names
 * what it admits: the holder, and for each event of today (or the next ones) its name, date in the event's
 * time zone, venue, ticket types and count (admits/admitted-events.ts).
 * Issue 22: when the operator configured a wallet, each upcoming ticket with its wallet badges (ui/wallet-buttons.tsx,
 * loaded lazily).
 */
import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePanelConfig, useUser } from '../../../lib/queries';
import { linkWithLang } from '../../../lib/i18n';
import { HelpIcon, LockIcon } from '../../../ui/icons';
import { useTickets } from '../../../lib/ticket-queries';
import { useQrConfig, useQrImage } from '../api/qr.api';
import { usePassView } from '../pass/use-pass';
import { forgetDevicePass } from '../pass/device-pass';
import { admittedEvents } from '../admits/admitted-events';
import { markFirstScreenDrawn } from '../../../lib/first-screen';
import { PassCode } from './pass-code';
import { PassAdmits } from './pass-admits';
import { QrLearnMore } from './qr-learn-more';

/** The wallet badges (decision 029), loaded only when the operator configured a wallet. */
const WalletButtons = lazy(() => import('../../../ui/wallet-buttons'));

/** How soon an event must start for the QR screen to offer its tickets' wallet badges (the default reveal, 24 h). */
const WALLET_SOON_MS = 24 * 3_600_000;

/**
 * The QR screen: its parts are the code area (pass-code.tsx), what the pass admits (pass-admits.tsx) and the
 * 'learn more' modal (qr-learn-more.tsx).
 */
export default function QrScreen() {
  const { t, i18n } = useTranslation();
  const config = usePanelConfig();
  const user = useUser().data;
  const qrConfig = useQrConfig().data;
  // Issue 21: before the organiser's passRevealAt the server gives no pass; the screen says when it appears.
  const revealAt = qrConfig?.passRevealAt ?? null;
  const ttl = revealAt ? undefined : qrConfig?.ttl;
  const image = useQrImage(ttl);
  const { view, offline, retry } = usePassView(ttl, image);
  const tickets = useTickets('UPCOMING').data;
  const events = tickets ? admittedEvents(tickets) : null;
  // Wallet badges for the tickets whose pass is issued by default now: live, or starting within a day (decision 029).
  const [openedAt] = useState(() => Date.now());
  const walletTickets = (tickets ?? []).filter(
    (tk) => tk.isLive || Date.parse(tk.eventStartDateTime) - openedAt < WALLET_SOON_MS,
  );
  const [learn, setLearn] = useState(false);
  // Before the reveal no code may show, also not a pass stored earlier: forgotten here, the first QR drawn before
  // the app (first-qr.ts) finds none at the next start.
  useEffect(() => {
    if (revealAt) void forgetDevicePass();
  }, [revealAt]);
  // The first screen is drawn in the commit that shows this screen's code, or its message when it has none: the
  // first QR drawn before the app (first-qr.ts) leaves before the next paint, so the page never shows two codes
  // nor a code this screen says it does not have.
  const settled = Boolean(revealAt) || view.kind !== 'loading';
  useLayoutEffect(() => {
    if (settled) markFirstScreenDrawn();
  }, [settled]);
  return (
    <div className="qr-screen stack">
      <h1 className="screen-title">{t('qr.title')}</h1>
      <div className="qr-box">
        <PassCode
          revealAt={revealAt}
          timeZone={tickets?.[0]?.eventTimeZone}
          view={view}
          offline={offline}
          ttl={ttl}
          retry={retry}
        />
        {user && (
          <p className="qr-box__name" data-testid="pass-holder">
            <span className="qr-box__label">{t('pass.holder')}</span> {user.name ?? user.preferredUsername}
          </p>
        )}
        {events && <PassAdmits events={events} />}
        {(config?.wallets?.apple || config?.wallets?.google) && walletTickets.length > 0 && (
          <Suspense fallback={null}>
            <ul className="pass-wallets" aria-label={t('wallet.label')}>
              {walletTickets.map((tk) => (
                <li key={tk.userTicketId} className="pass-wallets__ticket">
                  <span className="small">
                    {tk.eventName} · {tk.ticketName}
                  </span>
                  <WalletButtons userTicketId={tk.userTicketId} timeZone={tk.eventTimeZone} />
                </li>
              ))}
            </ul>
          </Suspense>
        )}
      </div>
      <button type="button" className="link link--center" onClick={() => setLearn(true)}>
        {t('qr.learn_more')}
      </button>
      <p className="note">
        <LockIcon /> {t('qr.private')}
      </p>
      <div className="help-box">
        <HelpIcon />
        <div>
          <strong>{t('qr.need_help')}</strong>
          <p>{t('qr.need_help_text')}</p>
          {config && (
            <a href={linkWithLang(config.helpCenterUrl, i18n.language)} target="_blank" rel="noopener noreferrer">
              {t('qr.help_center')}
            </a>
          )}
        </div>
      </div>
      {learn && <QrLearnMore onClose={() => setLearn(false)} />}
    </div>
  );
}
