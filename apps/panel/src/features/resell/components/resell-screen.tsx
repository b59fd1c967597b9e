/**
 * RESELL (spec sections 2 Resell, 4 Resell flow, 5, 8): choose a ticket from the dropdown (pre-selected
 * from USER_TICKET_ID), set quantity and price, see the pricing summary, Continue, accept the terms, list.
 * Success: "Your ticket is now listed for resale!" (focused), the share box and "resell more"; unlisting
 * that listing below clears them (issue 13). A card says what you are reselling. Below: the SALE and SOLD
 * tabs of the user's listings. Issue 23: without a verified payout account the requirement stands above the
 * form (PayoutNotice), and its link keeps the form for the way back. Issue 40 point 11: the chosen ticket shows
 * once (the card; the dropdown comes back with Change), and a kept form comes back however the holder returns.
 */
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureKey } from '../../../lib/api-client';
import { RESALE_PRICE_TOLERANCE } from '@tp/contract/constants';
import { usePanelConfig } from '../../../lib/queries';
import { usePayoutAccount } from '../../../lib/payout-account';
import { forgetResellDraft, readResellDraft } from '../../../lib/resell-draft';
import { assetUrl, formatMoney, ticketNumber } from '../../../lib/format';
import { navigate, useRoute } from '../../../lib/use-route';
import { Button } from '../../../ui/button';
import { Skeleton, ErrorState } from '../../../ui/bits';
import { EmptyState, SeeMyTicketsButton } from '../../../ui/empty-state';
import { Thumb } from '../../../ui/thumb';
import { useAvailableForListing } from '../api/resell-available.api';
import type { ResellableTicket } from '../resell.types';
import { Listings } from './listings';
import { PayoutNotice } from './no-payout';
import { ResellForm } from './resell-form';
import { ShareBox } from './share-box';
import { TicketPicker } from './ticket-picker';
import '../resell.css';
import { ScreenHeader } from '../../../ui/screen-header';
import { SuccessSection } from '../../../ui/success-heading';

/** The ticket of the resale form kept for the payout tab (lib/resell-draft), as USER_TICKET_ID reads; or null. */
const draftTicketId = () => {
  const draft = readResellDraft();
  return draft ? String(draft.userTicketId) : null;
};

/** The "you are reselling" card: the ticket, and quantity x price once a valid price is set. */
function ResellingCard(props: {
  ticket: ResellableTicket;
  draft: { quantity: number; price: number | null };
  logo?: string;
  onEdit?: () => void;
}) {
  const { t } = useTranslation();
  const { ticket, draft } = props;
  return (
    <section className="resell-card" aria-label={t('resell.you_are_reselling')}>
      <Thumb src={props.logo} size={64} icon />
      <div className="resell-entry__body">
        <p className="muted small">{t('resell.you_are_reselling')}</p>
        <p className="resell-entry__name">{ticket.ticketName}</p>
        <p className="muted small">{t('tickets.number', { number: ticketNumber(ticket.userTicketId) })}</p>
        <p className="small">
          {draft.price !== null && draft.price > 0 && draft.price <= ticket.maxTicketPrice + RESALE_PRICE_TOLERANCE
            ? t('resell.card_price', { count: draft.quantity, price: formatMoney(draft.price, ticket.currencyCode) })
            : t('resell.face_value', { price: formatMoney(ticket.ticketPrice, ticket.currencyCode) })}
        </p>
      </div>
      {props.onEdit && (
        <button type="button" className="link" onClick={props.onEdit}>
          {t('resell.change')}
        </button>
      )}
    </section>
  );
}

export default function ResellScreen() {
  const { t } = useTranslation();
  const route = useRoute();
  const config = usePanelConfig();
  // The ticket to pre-select: the route's (a ticket page's menu, the payout tab's way back), else the one of a form
  // kept for the payout tab (issue 40 point 11: coming back from Stripe's onboarding through the menu, whose
  // account may still be pending, the form was lost).
  const [kept] = useState(draftTicketId);
  const prefer = route.userTicketId ?? kept;
  const available = useAvailableForListing(prefer);
  const payout = usePayoutAccount();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [draft, setDraft] = useState<{ quantity: number; price: number | null }>({ quantity: 1, price: null });
  const [locked, setLocked] = useState(false);
  const [listed, setListed] = useState<{ url: string; title: string } | null>(null);
  const preselected = useRef(false);
  const logoUrl = useCallback((p: string | null) => assetUrl(p, config?.assetsBaseUrl), [config?.assetsBaseUrl]);

  // Pre-select the ticket the user came with (the ticket page's menu links here with USER_TICKET_ID), once,
  // when the listable tickets first arrive.
  const preselect = useEffectEvent((list: ResellableTicket[]) => {
    const match = prefer ? list.find((x) => String(x.userTicketId) === prefer) : undefined;
    if (match) setSelectedId(match.userTicketId);
  });
  useEffect(() => {
    if (preselected.current || !available.data) return;
    preselected.current = true;
    preselect(available.data);
  }, [available.data]);

  const selected = available.data?.find((x) => x.userTicketId === selectedId) ?? null;
  const reset = () => {
    setSelectedId(null);
    setLocked(false);
    setDraft({ quantity: 1, price: null });
    forgetResellDraft();
    if (route.userTicketId) navigate({ userTicketId: null, ticketName: null }, { replace: true });
  };
  const onDraft = useCallback((d: { quantity: number; price: number | null }) => setDraft(d), []);

  let body: React.ReactNode;
  if (listed) {
    body = (
      <SuccessSection
        className="stack resell-success"
        headingClassName="resell-success__title"
        title={t('resell.success_title')}
      >
        <p className="muted">{t('resell.success_text')}</p>
        <ShareBox url={listed.url} title={listed.title} />
        <Button
          variant="secondary"
          onClick={() => {
            setListed(null);
            reset();
          }}
        >
          {t('resell.resell_more')}
        </Button>
      </SuccessSection>
    );
  } else if (available.isLoading) {
    body = (
      <div className="stack" aria-busy="true">
        <Skeleton height={20} width="30%" />
        <Skeleton height={58} radius={12} />
        <Skeleton height={120} radius={14} />
      </div>
    );
  } else if (available.isError || !available.data) {
    body = <ErrorState message={t(failureKey(available.error))} onRetry={available.refetch} />;
  } else if (available.data.length === 0) {
    body = (
      <EmptyState message={t('resell.empty')} hint={t('feedback.resell_empty_hint')}>
        <SeeMyTicketsButton variant="secondary" />
      </EmptyState>
    );
  } else {
    body = (
      <div className="stack">
        {payout.data && !payout.data.verified && (
          <PayoutNotice
            draft={() =>
              selected && {
                userTicketId: selected.userTicketId,
                quantity: draft.quantity,
                price: draft.price === null ? '' : String(draft.price),
              }
            }
          />
        )}
        {selected && (
          <ResellingCard
            ticket={selected}
            draft={draft}
            logo={logoUrl(selected.ticketLogo)}
            onEdit={locked ? undefined : reset}
          />
        )}
        {/* The chosen ticket shows once, in the card above (its Change opens the choice again): issue 40 point 11. */}
        {!selected && (
          <TicketPicker
            label={t('resell.ticket')}
            tickets={available.data}
            value={selected}
            disabled={locked}
            logoUrl={logoUrl}
            onChange={(tk) => {
              setSelectedId(tk.userTicketId);
              setDraft({ quantity: 1, price: null });
            }}
          />
        )}
        {selected ? (
          <ResellForm
            key={selected.userTicketId}
            ticket={selected}
            onDraft={onDraft}
            onLockedChange={setLocked}
            onCancel={reset}
            onListed={(url) => setListed({ url, title: selected.ticketName })}
          />
        ) : (
          <p className="muted small">{t('resell.choose_hint')}</p>
        )}
      </div>
    );
  }

  return (
    <div className="stack resell">
      <ScreenHeader title={t('resell.title')} subtitle={t('resell.subtitle')} />
      {body}
      <Listings
        onUnlisted={(l) => {
          // Unlisting the listing just made: its share link no longer sells anything, so the box goes (issue 13).
          if (listed?.url !== l.shareLinkUrl) return;
          setListed(null);
          reset();
        }}
      />
    </div>
  );
}
