/**
 * GIFT (spec sections 2 Gift, 4 Gift flow, 5, 8): choose one of the holder's upcoming tickets
 * (pre-selected from USER_TICKET_ID or the stored user-ticket id), which proceeds only when the
 * server's verify says `extras.canBeGifted`; pick the receiver by EMAIL or USERNAME and confirm;
 * accept the terms (gifts are permanent); Gift. Cancel resets; editing the ticket or receiver
 * returns to that step; the success page offers "gift more tickets" and "view my ticket".
 */
import { useEffect, useEffectEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../lib/toast';
import type { MyTicket } from '@tp/contract';
import { navigate, useRoute } from '../../../lib/use-route';
import { usePanelConfig } from '../../../lib/queries';
import { storage } from '../../../lib/storage';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { EmptyState, SeeMyTicketsButton } from '../../../ui/empty-state';
import { Button } from '../../../ui/button';
import { Tabs } from '../../../ui/tabs';
import { useTickets } from '../../../lib/ticket-queries';
import { useVerifyGift, verifyGift } from '../api/verify-gift.api';
import { giftTicket, useGiftTicket } from '../api/gift-ticket.api';
import { giftErrorKey, type Receiver } from '../gift.validation';
import { TicketSelect } from './ticket-select';
import { EmailReceiver } from './email-receiver';
import { UsernameSearch } from './username-search';
import { GiftReceiverCard, GiftTicketCard } from './gift-card';
import { GiftSuccess } from './gift-success';
import '../gift.css';
import { ScreenHeader } from '../../../ui/screen-header';

type ReceiverTab = Receiver['kind'];

export default function GiftScreen() {
  const { t } = useTranslation();
  const route = useRoute();
  const config = usePanelConfig();
  const base = config?.assetsBaseUrl;
  const tickets = useTickets('UPCOMING'); // spec 9: gift list filter UPCOMING
  const verify = useVerifyGift();
  const gift = useGiftTicket();
  const uid = useId();

  const [choice, setChoice] = useState<MyTicket | null>(null);
  const [ticket, setTicket] = useState<MyTicket | null>(null);
  const [notGiftable, setNotGiftable] = useState(false);
  const [tab, setTab] = useState<ReceiverTab>('EMAIL');
  const [receiver, setReceiver] = useState<Receiver | null>(null);
  const [draft, setDraft] = useState<Receiver | null>(null);
  const [accepted, setAccepted] = useState(false);
  const [done, setDone] = useState<{ ticket: MyTicket; receiver: Receiver } | null>(null);
  const preselected = useRef(false);
  const receiverHeading = useRef<HTMLHeadingElement>(null);
  const terms = useRef<HTMLInputElement>(null);
  // The control that had focus is replaced at each step: move focus to the new step.
  useEffect(() => {
    if (ticket && !receiver) receiverHeading.current?.focus();
  }, [ticket, receiver]);
  useEffect(() => {
    if (receiver) terms.current?.focus();
  }, [receiver]);

  const choose = (tk: MyTicket) => {
    setChoice(tk);
    setTicket(null);
    setNotGiftable(false);
    setReceiver(null);
    setAccepted(false);
    storage.set('userTicketId', String(tk.userTicketId));
    verify.mutate(tk.userTicketId, {
      onSuccess: (r) => {
        if (r.extras.canBeGifted) setTicket(tk);
        else setNotGiftable(true);
      },
      onError: (err) => toast.error(t(giftErrorKey(err, 'gift_tickets.internal_error_verify')), { action: verifyGift }),
    });
  };

  // Pre-select once from USER_TICKET_ID or the stored user-ticket id (spec section 2 Gift), when the
  // tickets first arrive; the route read then is the one the screen opened with.
  const preselect = useEffectEvent((list: MyTicket[]) => {
    const wanted = route.userTicketId ?? storage.get('userTicketId');
    const tk = wanted ? list.find((x) => String(x.userTicketId) === wanted) : undefined;
    if (tk) choose(tk);
  });
  useEffect(() => {
    if (preselected.current || !tickets.data) return;
    preselected.current = true;
    preselect(tickets.data);
  }, [tickets.data]);

  const forgetTicketId = () => {
    storage.remove('userTicketId');
    if (route.userTicketId) navigate({ userTicketId: null, ticketName: null }, { replace: true });
  };
  const reset = () => {
    setChoice(null);
    setTicket(null);
    setNotGiftable(false);
    setTab('EMAIL');
    setReceiver(null);
    setDraft(null);
    setAccepted(false);
    setDone(null);
    verify.reset();
    gift.reset();
    forgetTicketId();
  };
  const editTicket = () => {
    setTicket(null);
    setReceiver(null);
    setAccepted(false);
  };
  const editReceiver = () => {
    if (receiver) {
      setDraft(receiver);
      setTab(receiver.kind);
    }
    setReceiver(null);
    setAccepted(false);
  };
  const confirmReceiver = (r: Receiver) => {
    setReceiver(r);
    setDraft(r);
    setAccepted(false);
  };

  const submit = () => {
    if (!ticket || !receiver || !accepted) return;
    gift.mutate(
      { userTicketId: ticket.userTicketId, username: receiver.value },
      {
        onSuccess: () => {
          setDone({ ticket, receiver });
          forgetTicketId();
        },
        onError: (err) => {
          const key = giftErrorKey(err, 'gift_tickets.internal_error');
          toast.error(t(key), { action: giftTicket });
          // The ticket itself can no longer be gifted: back to choosing a ticket.
          if (key === 'gift_tickets.cannot_be_gifted' || key === 'gift_tickets.not_allowed') {
            setTicket(null);
            setReceiver(null);
            setAccepted(false);
            setChoice(null);
          }
          if (key === 'gift_tickets.receiver_not_found' || key === 'gift_tickets.cannot_gift_to_self') editReceiver();
        },
      },
    );
  };

  if (done) {
    return (
      <GiftSuccess
        ticket={done.ticket}
        receiver={done.receiver}
        assetsBaseUrl={base}
        onMore={reset}
        onView={() => navigate({ tab: 'MY_TICKET', userTicketId: null, ticketName: null })}
      />
    );
  }

  const errorId = `${uid}-not-giftable`;
  let step1;
  if (ticket)
    step1 = <GiftTicketCard ticket={ticket} assetsBaseUrl={base} onEdit={gift.isPending ? undefined : editTicket} />;
  else if (tickets.isLoading) {
    step1 = (
      <div className="stack-sm" aria-busy="true" aria-label={t('common.loading')}>
        <Skeleton width={120} height={18} />
        <Skeleton height={64} radius={12} />
      </div>
    );
  } else if (tickets.isError) {
    step1 = <ErrorState message={t(giftErrorKey(tickets.error, 'request_failed'))} onRetry={tickets.refetch} />;
  } else if (!tickets.data?.length) {
    step1 = (
      <EmptyState message={t('gift.empty')} hint={t('feedback.gift_empty_hint')}>
        <SeeMyTicketsButton variant="secondary" />
      </EmptyState>
    );
  } else {
    step1 = (
      <div className="stack-sm">
        <TicketSelect
          tickets={tickets.data}
          value={choice}
          onChange={choose}
          busy={verify.isPending}
          assetsBaseUrl={base}
          invalid={notGiftable}
          describedBy={notGiftable ? errorId : undefined}
        />
        {verify.isPending && (
          <p className="muted small" role="status">
            {t('gift.checking')}
          </p>
        )}
        {notGiftable && (
          <p id={errorId} className="field__error" role="alert">
            {t('gift_tickets.cannot_be_gifted')}
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="stack gift">
      <ScreenHeader title={t('gift.title')} subtitle={t('gift.subtitle')} subtitleClassName="gift__subtitle" />
      {step1}
      {ticket && !receiver && (
        <section className="stack gift-receiver" aria-labelledby={`${uid}-receiver`}>
          <h2 id={`${uid}-receiver`} ref={receiverHeading} tabIndex={-1} className="section-title gift__step-title">
            {t('gift.receiver_title')}
          </h2>
          <Tabs
            label={t('gift.receiver_by')}
            value={tab}
            onChange={setTab}
            options={[
              { value: 'EMAIL', label: t('gift.tab_email') },
              { value: 'USERNAME', label: t('gift.tab_username') },
            ]}
          />
          <div role="tabpanel" aria-label={tab === 'EMAIL' ? t('gift.tab_email') : t('gift.tab_username')}>
            {tab === 'EMAIL' ? (
              <EmailReceiver
                initial={draft?.kind === 'EMAIL' ? draft.value : undefined}
                onConfirm={(email) => confirmReceiver({ kind: 'EMAIL', value: email })}
              />
            ) : (
              <UsernameSearch
                assetsBaseUrl={base}
                initial={draft?.kind === 'USERNAME' ? { username: draft.value, picture: draft.picture } : null}
                onConfirm={(u) => confirmReceiver({ kind: 'USERNAME', value: u.username, picture: u.picture })}
              />
            )}
          </div>
        </section>
      )}
      {ticket && receiver && (
        <GiftReceiverCard receiver={receiver} assetsBaseUrl={base} onEdit={gift.isPending ? undefined : editReceiver} />
      )}
      {ticket && receiver && (
        <label className="gift-terms">
          <input
            ref={terms}
            type="checkbox"
            checked={accepted}
            disabled={gift.isPending}
            onChange={(e) => setAccepted(e.target.checked)}
          />
          <span>{t('gift.terms')}</span>
        </label>
      )}
      {(choice || ticket) && (
        <div className="gift-actions">
          <Button variant="secondary" onClick={reset} disabled={gift.isPending}>
            {t('common.cancel')}
          </Button>
          {ticket && receiver && (
            <Button onClick={submit} disabled={!accepted} loading={gift.isPending}>
              {t('gift.submit')}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
