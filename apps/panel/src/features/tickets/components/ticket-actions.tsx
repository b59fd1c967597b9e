/**
 * Ticket page actions (spec sections 2 Ticket page, 6): a Gift button only when the ticket is
 * giftable and its event access is unused; a menu with Swap and Resell, each only when allowed and
 * the event access is unused (the menu is absent when it would be empty). Gift opens PANEL_TAB=GIFT,
 * Swap and Resell open SWAP / RESELL, all with USER_TICKET_ID.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTicket, PanelTab } from '@tp/contract';
import { navigate } from '../../../lib/use-route';
import { storage } from '../../../lib/storage';
import { Button } from '../../../ui/button';
import { GiftIcon, ResellIcon, SwapIcon } from '../../../ui/icons';
import { useMenu } from '../../../ui/use-menu';

const MoreIcon = () => (
  <svg
    className="icon"
    viewBox="0 0 24 24"
    width="20"
    height="20"
    fill="currentColor"
    aria-hidden="true"
    focusable="false"
  >
    <circle cx="12" cy="5" r="1.8" />
    <circle cx="12" cy="12" r="1.8" />
    <circle cx="12" cy="19" r="1.8" />
  </svg>
);

/** Which actions a ticket offers (spec section 6: each flag is blocked once event access is used). */
export function ticketActions(tk: Pick<MyTicket, 'isGiftable' | 'isSwappable' | 'isResellable' | 'eventAccessStatus'>) {
  const unused = tk.eventAccessStatus !== 'USED';
  return { gift: unused && tk.isGiftable, swap: unused && tk.isSwappable, resell: unused && tk.isResellable };
}

const open = (tab: PanelTab, tk: MyTicket) => {
  storage.set('userTicketId', String(tk.userTicketId));
  navigate({ tab, userTicketId: String(tk.userTicketId), ticketName: null });
};

export function TicketActions(props: { ticket: MyTicket }) {
  const { t } = useTranslation();
  const id = useId();
  const allowed = ticketActions(props.ticket);
  const items = [
    allowed.swap && { tab: 'SWAP' as const, label: t('ticket.swap'), Icon: SwapIcon },
    allowed.resell && { tab: 'RESELL' as const, label: t('ticket.resell'), Icon: ResellIcon },
  ].filter((x): x is { tab: 'SWAP' | 'RESELL'; label: string; Icon: typeof SwapIcon } => Boolean(x));
  const { open: menuOpen, setOpen: setMenuOpen, root, trigger, itemRef, onMenuKey } = useMenu();

  if (!allowed.gift && items.length === 0) return null;
  return (
    <div className="ticket-actions" ref={root}>
      {allowed.gift && (
        <Button className="btn--small" onClick={() => open('GIFT', props.ticket)}>
          <GiftIcon />
          {t('ticket.gift')}
        </Button>
      )}
      {items.length > 0 && (
        <div className="ticket-menu">
          <button
            ref={trigger}
            type="button"
            className="icon-btn"
            aria-label={t('ticket.actions')}
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            aria-controls={menuOpen ? `${id}-menu` : undefined}
            onClick={() => setMenuOpen((v) => !v)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') {
                e.preventDefault();
                setMenuOpen(true);
              }
            }}
          >
            <MoreIcon />
          </button>
          {menuOpen && (
            <div
              id={`${id}-menu`}
              role="menu"
              aria-label={t('ticket.actions')}
              className="ticket-menu__list"
              tabIndex={-1}
              onKeyDown={onMenuKey}
            >
              {items.map((it, i) => (
                <button
                  key={it.tab}
                  ref={itemRef(i)}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className="ticket-menu__item"
                  onClick={() => {
                    setMenuOpen(false);
                    open(it.tab, props.ticket);
                  }}
                >
                  <it.Icon />
                  {it.label}
                </button>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
