import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { Receiver } from '../gift.validation';
import { GiftReceiverCard } from './gift-card';

/** Step 3: the confirmed receiver (editable unless sending) and the terms to accept (gifts are permanent). */
export function GiftTermsStep({
  termsRef,
  ...p
}: {
  receiver: Receiver;
  assetsBaseUrl: string | undefined;
  sending: boolean;
  accepted: boolean;
  termsRef: RefObject<HTMLInputElement | null>;
  onAccept: (accepted: boolean) => void;
  onEdit: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <GiftReceiverCard
        receiver={p.receiver}
        assetsBaseUrl={p.assetsBaseUrl}
        onEdit={p.sending ? undefined : p.onEdit}
      />
      <label className="gift-terms checkbox-label">
        <input
          ref={termsRef}
          type="checkbox"
          checked={p.accepted}
          disabled={p.sending}
          onChange={(e) => p.onAccept(e.target.checked)}
        />
        <span>{t('gift.terms')}</span>
      </label>
    </>
  );
}
