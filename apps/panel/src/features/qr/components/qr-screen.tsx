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
import { Modal } from '../../../ui/modal';
import { Skeleton } from '../../../ui/bits';
import { HelpIcon, LockIcon, ShieldIcon, GiftIcon, SparkIcon } from '../../../ui/icons';
import { useTickets } from '../../../lib/ticket-queries';
import { formatRange, formatWhen } from '../../../lib/format';
import { useQrConfig, useQrImage } from '../api/qr.api';
import { usePassView } from '../pass/use-pass';
import { forgetDevicePass } from '../pass/device-pass';
import { admittedEvents } from '../admits/admitted-events';
import { markFirstScreenDrawn } from '../../../lib/first-screen';

/** The wallet badges (decision 029), loaded only when the operator configured a wallet. */
const WalletButtons = lazy(() => import('../../../ui/wallet-buttons'));

/** How soon an event must start for the QR screen to offer its tickets' wallet badges (the default reveal, 24 h). */
const WALLET_SOON_MS = 24 * 3_600_000;

/** What the screen says, above a retry, in each state in which it has no code to show. */
const NO_CODE_MESSAGE = {
  needs_signal: 'pass.needs_signal',
  stale: 'offline_pass.stale',
  error: 'offline_pass.error',
} as const;

// Over 150 lines: the pass screen's states (loading, not yet, offline, brightness); not yet split (issue 43).
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
        {offline && view.kind === 'device' && (
          <p role="status" className="qr-box__name">
            {t('offline_pass.offline')}
          </p>
        )}
        {revealAt ? (
          <p role="status" className="qr-box__error" data-testid="pass-reveal">
            {t('qr.pass_appears_at', {
              time: formatWhen(revealAt, tickets?.[0]?.eventTimeZone, i18n.language === 'es' ? 'es' : 'en'),
            })}
          </p>
        ) : view.kind === 'server' || view.kind === 'device' || view.kind === 'held' ? (
          <img
            className="qr-box__img"
            src={view.src}
            alt={t('qr.alt')}
            width={396}
            height={396}
            data-pass-kind={view.kind === 'held' ? 'server' : view.kind}
          />
        ) : view.kind === 'loading' ? (
          <Skeleton height={300} radius={16} />
        ) : (
          <div role="alert" className="qr-box__error">
            <p>{t(NO_CODE_MESSAGE[view.kind])}</p>
            <button type="button" className="btn btn--secondary" onClick={retry}>
              {t('common.retry')}
            </button>
          </div>
        )}
        {view.kind === 'server' || view.kind === 'device' ? (
          <p className="qr-box__hint" aria-live="off" data-testid="qr-countdown">
            {t('offline_pass.next_code_in', { seconds: view.secondsLeft })}
          </p>
        ) : view.kind === 'held' ? (
          <p className="qr-box__hint qr-box__hint--warn" aria-live="off" data-testid="qr-countdown">
            {t('pass.held', { seconds: view.secondsLeft })}
          </p>
        ) : (
          <p className="qr-box__hint">{t('qr.refreshes', { count: ttl ?? 30 })}</p>
        )}
        {user && (
          <p className="qr-box__name" data-testid="pass-holder">
            <span className="qr-box__label">{t('pass.holder')}</span> {user.name ?? user.preferredUsername}
          </p>
        )}
        {events && (
          <section className="pass-admits" aria-label={t('pass.admits')}>
            {events.length === 0 ? (
              <p className="qr-box__hint">{t('pass.no_events')}</p>
            ) : (
              <ul>
                {events.map((e) => (
                  <li key={e.key} className="pass-admits__event">
                    <strong className="pass-admits__name">{e.eventName}</strong>
                    <span>{formatRange(e.eventStartDateTime, e.eventEndDateTime, e.eventTimeZone)}</span>
                    <span>
                      {e.eventVenue}, {e.eventCity}
                    </span>
                    <span className="pass-admits__tickets">
                      {t('pass.tickets', { count: e.count })}:{' '}
                      {e.types.map((ty) => t('pass.type_count', { count: ty.count, name: ty.name })).join(', ')}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        )}
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
      {learn && (
        <Modal title={t('qr.learn_title')} onClose={() => setLearn(false)} fullScreen>
          <ul className="points">
            <li>
              <ShieldIcon />
              <div>
                <strong>{t('qr.point_entry')}</strong>
                <p>{t('qr.point_entry_text')}</p>
              </div>
            </li>
            <li>
              <GiftIcon />
              <div>
                <strong>{t('qr.point_gift')}</strong>
                <p>{t('qr.point_gift_text')}</p>
              </div>
            </li>
            <li>
              <SparkIcon />
              <div>
                <strong>{t('qr.point_addons')}</strong>
                <p>{t('qr.point_addons_text')}</p>
              </div>
            </li>
          </ul>
        </Modal>
      )}
    </div>
  );
}
