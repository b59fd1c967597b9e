import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { toast } from '../../../lib/toast';
import { giftTicket, useGiftTicket } from '../api/gift-ticket.api';
import { giftErrorKey, type Receiver } from '../gift.validation';

/** A gift the server accepted. */
export interface GiftSent {
  ticket: MyTicket;
  receiver: Receiver;
}

/**
 * Sending the gift: on success `done` holds what was sent and `onSent` runs; a failure toasts the server's key
 * (else gift_tickets.internal_error) and hands the key to `onRejected` so the screen returns to the step at fault.
 */
export function useGiftSend(p: { onSent: () => void; onRejected: (key: string) => void }) {
  const { t } = useTranslation();
  const gift = useGiftTicket();
  const [done, setDone] = useState<GiftSent | null>(null);

  const send = (ticket: MyTicket, receiver: Receiver) => {
    gift.mutate(
      { userTicketId: ticket.userTicketId, username: receiver.value },
      {
        onSuccess: () => {
          setDone({ ticket, receiver });
          p.onSent();
        },
        onError: (err) => {
          const key = giftErrorKey(err, 'gift_tickets.internal_error');
          toast.error(t(key), { action: giftTicket });
          p.onRejected(key);
        },
      },
    );
  };
  const reset = () => {
    setDone(null);
    gift.reset();
  };
  return { done, sending: gift.isPending, send, reset };
}
