/**
 * The gift summary cards (spec sections 2 Gift, 3 Card component): "you are gifting" with the
 * ticket (image, title, date, venue) and "to recipient" with the receiver; each can be edited,
 * which returns the flow to that step (spec section 4 Gift flow).
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { nicknameOf } from '@tp/contract/profile';
import { assetUrl, formatRange } from '../../../lib/format';
import { Avatar } from '../../../ui/avatar';
import { Thumb } from '../../../ui/thumb';
import { Username } from '../../../ui/username';
import type { Receiver } from '../gift.validation';

function Card(props: {
  heading: string;
  media: ReactNode;
  children: ReactNode;
  editLabel?: string;
  onEdit?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="box gift-card" aria-label={props.heading}>
      <h2 className="gift-card__heading">{props.heading}</h2>
      <div className="gift-card__row">
        <span className="gift-card__media" aria-hidden="true">
          {props.media}
        </span>
        <div className="gift-card__body">{props.children}</div>
        {props.onEdit && (
          <button type="button" className="link gift-card__edit" onClick={props.onEdit} aria-label={props.editLabel}>
            {t('gift.edit')}
          </button>
        )}
      </div>
    </section>
  );
}

/** `done`: the gift has been made (its success page): "You gifted" instead of "You are gifting" (issue 40 point 11). */
export function GiftTicketCard(props: {
  ticket: MyTicket;
  assetsBaseUrl?: string;
  onEdit?: () => void;
  done?: boolean;
}) {
  const { t } = useTranslation();
  const tk = props.ticket;
  return (
    <Card
      heading={props.done ? t('gift.you_gifted') : t('gift.you_are_gifting')}
      editLabel={t('gift.edit_ticket')}
      onEdit={props.onEdit}
      media={<Thumb src={assetUrl(tk.ticketLogo ?? tk.eventLogo, props.assetsBaseUrl)} size={64} />}
    >
      <span className="gift-card__title">{tk.eventName}</span>
      <span>{tk.ticketName}</span>
      <span className="muted small">{formatRange(tk.eventStartDateTime, tk.eventEndDateTime, tk.eventTimeZone)}</span>
      <span className="muted small">
        {tk.eventVenue}, {tk.eventCity}
      </span>
    </Card>
  );
}

/** `done`: the gift has been made: "Now with" instead of "To recipient" (issue 40 point 11). */
export function GiftReceiverCard(props: {
  receiver: Receiver;
  assetsBaseUrl?: string;
  onEdit?: () => void;
  done?: boolean;
}) {
  const { t } = useTranslation();
  const r = props.receiver;
  const name = r.kind === 'USERNAME' ? nicknameOf(r.value) : r.value;
  return (
    <Card
      heading={props.done ? t('gift.gifted_to') : t('gift.to_recipient')}
      editLabel={t('gift.edit_receiver')}
      onEdit={props.onEdit}
      media={
        <Avatar
          picture={r.kind === 'USERNAME' ? assetUrl(r.picture, props.assetsBaseUrl) : undefined}
          givenName={name}
          size={48}
        />
      }
    >
      {r.kind === 'USERNAME' ? (
        <Username value={r.value} className="gift-card__title" />
      ) : (
        <span className="gift-card__title gift-card__email">{r.value}</span>
      )}
      <span className="muted small">{r.kind === 'USERNAME' ? t('gift.by_username') : t('gift.by_email')}</span>
    </Card>
  );
}
