/** The gift success page (spec section 2 Gift): "gift more tickets" resets, "view my ticket" opens MY_TICKET. */
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { Button } from '../../../ui/button';
import { GiftIcon } from '../../../ui/icons';
import { SuccessHeading } from '../../../ui/success-heading';
import type { Receiver } from '../gift.validation';
import { GiftReceiverCard, GiftTicketCard } from './gift-card';
import { ticketLabel } from './ticket-select';

export function GiftSuccess(props: {
  ticket: MyTicket;
  receiver: Receiver;
  assetsBaseUrl?: string;
  onMore: () => void;
  onView: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="stack gift-success">
      <span className="gift-success__icon" aria-hidden="true">
        <GiftIcon />
      </span>
      <SuccessHeading level={1} className="screen-title">
        {t('gift.success_title')}
      </SuccessHeading>
      <p className="muted">
        {t('gift.success_text', { ticket: ticketLabel(props.ticket), receiver: props.receiver.value })}
      </p>
      {/* In the past tense: the gift is made (issue 40 point 11). */}
      <GiftTicketCard ticket={props.ticket} assetsBaseUrl={props.assetsBaseUrl} done />
      <GiftReceiverCard receiver={props.receiver} assetsBaseUrl={props.assetsBaseUrl} done />
      <div className="gift-actions">
        <Button variant="secondary" onClick={props.onMore}>
          {t('gift.gift_more')}
        </Button>
        <Button onClick={props.onView}>{t('gift.view_my_ticket')}</Button>
      </div>
    </div>
  );
}
