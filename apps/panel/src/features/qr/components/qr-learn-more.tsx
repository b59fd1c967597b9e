/**
 * The QR screen's 'learn more' (spec section 2): a full-screen modal with three points (entry, gift, add-ons).
 */
import { useTranslation } from 'react-i18next';
import { Modal } from '../../../ui/modal';
import { GiftIcon, ShieldIcon, SparkIcon } from '../../../ui/icons';

/** The 'learn more' modal; `onClose` closes it. */
export function QrLearnMore({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal title={t('qr.learn_title')} onClose={onClose} fullScreen>
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
  );
}
