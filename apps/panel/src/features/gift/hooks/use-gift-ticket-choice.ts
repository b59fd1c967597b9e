import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { toast } from '../../../lib/toast';
import { useRoute } from '../../../lib/use-route';
import { storage } from '../../../lib/storage';
import { useVerifyGift, verifyGift } from '../api/verify-gift.api';
import { giftErrorKey } from '../gift.validation';

/**
 * The ticket step's state: the ticket chosen in the list (`choice`), and the same ticket once the server's
 * verify says `extras.canBeGifted` (`ticket`), else `notGiftable`. Choosing stores the user-ticket id and runs
 * `onChoose` (the receiver step starts over); a failed verify toasts gift_tickets.internal_error_verify (or
 * the server's key). Pre-selects once from USER_TICKET_ID or the stored user-ticket id (spec section 2 Gift)
 * when `list` first arrives; the route read then is the one the screen opened with.
 */
export function useGiftTicketChoice(list: MyTicket[] | undefined, onChoose: () => void) {
  const { t } = useTranslation();
  const route = useRoute();
  const verify = useVerifyGift();
  const [choice, setChoice] = useState<MyTicket | null>(null);
  const [ticket, setTicket] = useState<MyTicket | null>(null);
  const [notGiftable, setNotGiftable] = useState(false);
  const preselected = useRef(false);

  const choose = (tk: MyTicket) => {
    setChoice(tk);
    setTicket(null);
    setNotGiftable(false);
    onChoose();
    storage.set('userTicketId', String(tk.userTicketId));
    verify.mutate(tk.userTicketId, {
      onSuccess: (r) => {
        if (r.extras.canBeGifted) setTicket(tk);
        else setNotGiftable(true);
      },
      onError: (err) => toast.error(t(giftErrorKey(err, 'gift_tickets.internal_error_verify')), { action: verifyGift }),
    });
  };

  const preselect = useEffectEvent((tickets: MyTicket[]) => {
    const wanted = route.userTicketId ?? storage.get('userTicketId');
    const tk = wanted ? tickets.find((x) => String(x.userTicketId) === wanted) : undefined;
    if (tk) choose(tk);
  });
  useEffect(() => {
    if (preselected.current || !list) return;
    preselected.current = true;
    preselect(list);
  }, [list]);

  /** Back to the ticket list with the choice kept (edit) or dropped (`drop`). */
  const unverify = (drop: boolean) => {
    setTicket(null);
    if (drop) setChoice(null);
  };
  const reset = () => {
    setChoice(null);
    setTicket(null);
    setNotGiftable(false);
    verify.reset();
  };
  return { choice, ticket, notGiftable, verifying: verify.isPending, choose, unverify, reset };
}
