/**
 * GIFT (spec sections 2 Gift, 4 Gift flow, 5, 8): choose one of the holder's upcoming tickets
 * (pre-selected from USER_TICKET_ID or the stored user-ticket id), which proceeds only when the
 * server's verify says `extras.canBeGifted`; pick the receiver by EMAIL or USERNAME and confirm;
 * accept the terms (gifts are permanent); Gift. Cancel resets; editing the ticket or receiver
 * returns to that step; the success page offers "gift more tickets" and "view my ticket".
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate, useRoute } from '../../../lib/use-route';
import { usePanelConfig, useUser } from '../../../lib/queries';
import { storage } from '../../../lib/storage';
import { Button } from '../../../ui/button';
import { ScreenHeader } from '../../../ui/screen-header';
import { useTickets } from '../../../lib/ticket-queries';
import { useGiftReceiver } from '../hooks/use-gift-receiver';
import { useGiftTicketChoice } from '../hooks/use-gift-ticket-choice';
import { useGiftStepFocus } from '../hooks/use-gift-step-focus';
import { useGiftSend } from '../hooks/use-gift-send';
import { GiftTicketStep } from './gift-ticket-step';
import { GiftReceiverStep } from './gift-receiver-step';
import { GiftTermsStep } from './gift-terms-step';
import { GiftSuccess } from './gift-success';
import '../gift.css';

export default function GiftScreen() {
  const { t } = useTranslation();
  const route = useRoute();
  const config = usePanelConfig();
  const base = config?.assetsBaseUrl;
  const user = useUser().data;
  const self = user ? { email: user.email, username: user.preferredUsername } : undefined;
  const tickets = useTickets('UPCOMING'); // spec 9: gift list filter UPCOMING
  const uid = useId();
  const receiver = useGiftReceiver();
  const choice = useGiftTicketChoice(tickets.data, receiver.clear);
  const { ticket } = choice;
  const focus = useGiftStepFocus(ticket, receiver.receiver);

  const forgetTicketId = () => {
    storage.remove('userTicketId');
    if (route.userTicketId) navigate({ userTicketId: null, ticketName: null }, { replace: true });
  };
  const send = useGiftSend({
    onSent: forgetTicketId,
    onRejected: (key) => {
      // The ticket itself can no longer be gifted: back to choosing a ticket.
      if (key === 'gift_tickets.cannot_be_gifted' || key === 'gift_tickets.not_allowed') {
        choice.unverify(true);
        receiver.clear();
      }
      if (key === 'gift_tickets.receiver_not_found' || key === 'gift_tickets.cannot_gift_to_self') receiver.edit();
    },
  });
  const reset = () => {
    choice.reset();
    receiver.reset();
    send.reset();
    forgetTicketId();
  };
  const editTicket = () => {
    choice.unverify(false);
    receiver.clear();
  };
  const submit = () => {
    if (!ticket || !receiver.receiver || !receiver.accepted) return;
    send.send(ticket, receiver.receiver);
  };

  if (send.done) {
    return (
      <GiftSuccess
        ticket={send.done.ticket}
        receiver={send.done.receiver}
        assetsBaseUrl={base}
        onMore={reset}
        onView={() => navigate({ tab: 'MY_TICKET', userTicketId: null, ticketName: null })}
      />
    );
  }

  return (
    <div className="stack gift">
      <ScreenHeader title={t('gift.title')} subtitle={t('gift.subtitle')} subtitleClassName="gift__subtitle" />
      <GiftTicketStep
        tickets={tickets}
        choice={choice.choice}
        ticket={ticket}
        notGiftable={choice.notGiftable}
        verifying={choice.verifying}
        errorId={`${uid}-not-giftable`}
        assetsBaseUrl={base}
        onChoose={choice.choose}
        onEdit={send.sending ? undefined : editTicket}
      />
      {ticket && !receiver.receiver && (
        <GiftReceiverStep
          headingId={`${uid}-receiver`}
          headingRef={focus.receiverHeading}
          tab={receiver.tab}
          onTab={receiver.setTab}
          draft={receiver.draft}
          assetsBaseUrl={base}
          self={self}
          onConfirm={receiver.confirm}
        />
      )}
      {ticket && receiver.receiver && (
        <GiftTermsStep
          receiver={receiver.receiver}
          assetsBaseUrl={base}
          sending={send.sending}
          accepted={receiver.accepted}
          termsRef={focus.terms}
          onAccept={receiver.setAccepted}
          onEdit={receiver.edit}
        />
      )}
      {(choice.choice || ticket) && (
        <div className="gift-actions">
          <Button variant="secondary" onClick={reset} disabled={send.sending}>
            {t('common.cancel')}
          </Button>
          {ticket && receiver.receiver && (
            <Button onClick={submit} disabled={!receiver.accepted} loading={send.sending}>
              {t('gift.submit')}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
