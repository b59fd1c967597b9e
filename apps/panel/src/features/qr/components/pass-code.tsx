/**
 * The pass's code area on the QR screen (issues 10, 20, 21): the time the pass appears (before the organiser's
 * reveal), the code (server, device or held) with its countdown, a skeleton while loading, or what is wrong with a
 * retry; and the offline notice over a device code.
 */
import { useTranslation } from 'react-i18next';
import { langOf } from '@tp/contract/locale';
import { Skeleton } from '../../../ui/bits';
import { formatWhen } from '../../../lib/format';
import type { PassView } from '../pass/use-pass';

/** What the screen says, above a retry, in each state in which it has no code to show. */
const NO_CODE_MESSAGE = {
  needs_signal: 'pass.needs_signal',
  stale: 'offline_pass.stale',
  error: 'offline_pass.error',
} as const;

/**
 * The code area. `revealAt` (ISO UTC) is shown in `timeZone` (the first ticket's event's) while the pass is not
 * yet revealed; `ttl` (seconds) is the refresh the hint names when no countdown runs.
 */
export function PassCode({
  revealAt,
  timeZone,
  view,
  offline,
  ttl,
  retry,
}: {
  revealAt: string | null;
  timeZone: string | undefined;
  view: PassView;
  offline: boolean;
  ttl: number | undefined;
  retry: () => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <>
      {offline && view.kind === 'device' && (
        <p role="status" className="qr-box__name">
          {t('offline_pass.offline')}
        </p>
      )}
      {revealAt ? (
        <p role="status" className="qr-box__error" data-testid="pass-reveal">
          {t('qr.pass_appears_at', {
            time: formatWhen(revealAt, timeZone, langOf(i18n.language)),
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
    </>
  );
}
