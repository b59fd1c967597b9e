/**
 * The Unlock part of the benefit detail modal (spec sections 2 Ticket page, 4 Benefit, 6, 8): for an
 * unlockable digital benefit (`isUnlockable`, type DIGITAL_BENEFIT_TYPE) an Unlock button that
 * reveals the redeem code with a copy button; an already unlocked benefit shows its code at once.
 * Failures toast the server's message key (fallback api.internal_error).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import { DIGITAL_BENEFIT_TYPE } from '@tp/contract/constants';
import type { Benefit } from '@tp/contract';
import { ApiError } from '../../../lib/api-client';
import { copyText } from '../../../lib/clipboard';
import { Button } from '../../../ui/button';
import { CopyIcon, LockIcon } from '../../../ui/icons';
import { unlockBenefit, useUnlockBenefit } from '../api/unlock-benefit.api';

/** Whether the benefit gets an Unlock button (spec section 6: digital benefits unlock only if isUnlockable). */
export const isUnlockableDigital = (b: Benefit) => b.isUnlockable && b.type === DIGITAL_BENEFIT_TYPE;

export function BenefitUnlock(props: { benefit: Benefit; userTicketId: number; ticketKey: string }) {
  const { t } = useTranslation();
  const unlock = useUnlockBenefit(props.ticketKey);
  const [copied, setCopied] = useState(false);
  const b = props.benefit;
  if (!isUnlockableDigital(b)) return null;
  const code = b.redeemCode ?? unlock.data?.redeemCode ?? null;

  const onUnlock = () =>
    unlock.mutate(
      { userTicketId: props.userTicketId, userTicketBenefitId: b.userTicketBenefitId },
      {
        onError: (err) =>
          toast.error(
            t(err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : 'api.internal_error'),
            { action: unlockBenefit },
          ),
      },
    );
  const onCopy = async () => {
    if (await copyText(code!)) {
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } else toast.error(t('ticket.copy_failed'), { action: copyText });
  };

  if (!code) {
    return (
      <div className="benefit-unlock">
        <p className="note">
          <LockIcon />
          {t('ticket.unlock_hint')}
        </p>
        <Button onClick={onUnlock} loading={unlock.isPending}>
          {t('ticket.unlock')}
        </Button>
      </div>
    );
  }
  return (
    <div className="benefit-unlock">
      <span className="field__label" id={`code-${b.userTicketBenefitId}`}>
        {t('ticket.redeem_code')}
      </span>
      <div className="benefit-code">
        <output className="benefit-code__value" aria-labelledby={`code-${b.userTicketBenefitId}`}>
          {code}
        </output>
        <Button
          variant="secondary"
          className="btn--small"
          onClick={() => void onCopy()}
          aria-label={t('ticket.copy_code')}
        >
          <CopyIcon />
          <span aria-hidden="true">{copied ? t('common.copied') : t('common.copy')}</span>
        </Button>
      </div>
      <p className="visually-hidden" role="status">
        {copied ? t('ticket.code_copied') : ''}
      </p>
    </div>
  );
}
