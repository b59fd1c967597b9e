/**
 * QR (spec section 2): the entry QR image refreshed at the ttl, a 'learn more' full-screen modal with
 * three points, a keep-it-private note and a 'need help' box linking to the help centre.
 * Issue 10: the pass keeps rotating offline (codes signed on the device, pass/use-pass.ts) and the
 * screen says what it shows: a countdown to the next code, an offline notice, an error with a retry,
 * and a stale state when the offline pass has expired.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePanelConfig, useUser } from '../../../lib/queries';
import { linkWithLang } from '../../../lib/i18n';
import { Modal } from '../../../ui/modal';
import { Skeleton } from '../../../ui/bits';
import { HelpIcon, LockIcon, ShieldIcon, GiftIcon, SparkIcon } from '../../../ui/icons';
import { useQrConfig, useQrImage } from '../api/qr.api';
import { usePassView } from '../pass/use-pass';

export default function QrScreen() {
  const { t, i18n } = useTranslation();
  const config = usePanelConfig();
  const user = useUser().data;
  const ttl = useQrConfig().data?.ttl;
  const image = useQrImage(ttl);
  const { view, offline, retry } = usePassView(ttl, image);
  const [learn, setLearn] = useState(false);
  return (
    <div className="qr-screen stack">
      <h1 className="screen-title">{t('qr.title')}</h1>
      <div className="qr-box">
        {offline && view.kind === 'device' && (
          <p role="status" className="qr-box__name">
            {t('offline_pass.offline')}
          </p>
        )}
        {view.kind === 'server' || view.kind === 'device' ? (
          <img
            className="qr-box__img"
            src={view.src}
            alt={t('qr.alt')}
            width={396}
            height={396}
            data-pass-kind={view.kind}
          />
        ) : view.kind === 'stale' ? (
          <div role="alert" className="qr-box__error">
            <p>{t('offline_pass.stale')}</p>
            <button type="button" className="btn btn--secondary" onClick={retry}>
              {t('common.retry')}
            </button>
          </div>
        ) : view.kind === 'error' ? (
          <div role="alert" className="qr-box__error">
            <p>{t('offline_pass.error')}</p>
            <button type="button" className="btn btn--secondary" onClick={retry}>
              {t('common.retry')}
            </button>
          </div>
        ) : (
          <Skeleton height={300} radius={16} />
        )}
        {user && <p className="qr-box__name">{user.name ?? user.preferredUsername}</p>}
        {view.kind === 'server' || view.kind === 'device' ? (
          <p className="qr-box__hint" aria-live="off" data-testid="qr-countdown">
            {t('offline_pass.next_code_in', { seconds: view.secondsLeft })}
          </p>
        ) : (
          <p className="qr-box__hint">{t('qr.refreshes', { count: ttl ?? 30 })}</p>
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
