/**
 * The gift screen's ticket dropdown (spec section 2 Gift): a listbox of the holder's upcoming tickets,
 * each with its logo and name. A button opens it; arrow keys, Home/End move, Enter/Space choose,
 * Escape or a click outside close it.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { assetUrl } from '../../../lib/format';
import { ChevronIcon } from '../../../ui/icons';

/** "Event · Ticket type", the accessible and visible name of a ticket. */
export const ticketLabel = (tk: MyTicket) => `${tk.eventName} · ${tk.ticketName}`;

export function TicketSelect(props: {
  tickets: MyTicket[];
  value: MyTicket | null;
  onChange: (tk: MyTicket) => void;
  busy?: boolean;
  assetsBaseUrl?: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const labelId = `${id}-label`;
  const buttonId = `${id}-button`;
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    list.current?.focus();
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);
  useEffect(() => {
    if (open) list.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [open, active]);

  const openList = () => {
    const i = props.value ? props.tickets.findIndex((tk) => tk.userTicketId === props.value!.userTicketId) : 0;
    setActive(Math.max(0, i));
    setOpen(true);
  };
  const choose = (tk: MyTicket) => {
    setOpen(false);
    button.current?.focus();
    props.onChange(tk);
  };
  const onListKey = (e: KeyboardEvent) => {
    const n = props.tickets.length;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((a) => Math.min(n - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Home') {
      e.preventDefault();
      setActive(0);
    } else if (e.key === 'End') {
      e.preventDefault();
      setActive(n - 1);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      if (props.tickets[active]) choose(props.tickets[active]);
    } else if (e.key === 'Escape' || e.key === 'Tab') {
      if (e.key === 'Escape') e.preventDefault();
      setOpen(false);
      button.current?.focus();
    }
  };
  const v = props.value;
  return (
    <div className="field gift-select" ref={root}>
      <span id={labelId} className="field__label">
        {t('gift.ticket_label')}
      </span>
      <button
        ref={button}
        id={buttonId}
        type="button"
        className={`gift-select__button ${props.invalid ? 'gift-select__button--error' : ''}`}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-labelledby={`${labelId} ${buttonId}`}
        aria-describedby={props.describedBy}
        aria-busy={props.busy || undefined}
        disabled={props.busy}
        onClick={() => (open ? setOpen(false) : openList())}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            openList();
          }
        }}
      >
        {v ? (
          <span className="gift-option">
            <img
              className="gift-option__logo"
              src={assetUrl(v.ticketLogo ?? v.eventLogo, props.assetsBaseUrl)}
              alt=""
              width={40}
              height={40}
            />
            <span className="gift-option__text">
              <span className="gift-option__name">{v.eventName}</span>
              <span className="muted small">{v.ticketName}</span>
            </span>
          </span>
        ) : (
          <span className="muted">{t('gift.ticket_placeholder')}</span>
        )}
        {props.busy ? (
          <span className="spinner" aria-hidden="true" />
        ) : (
          <span className="gift-select__chevron" aria-hidden="true">
            <ChevronIcon />
          </span>
        )}
      </button>
      {open && (
        <ul
          ref={list}
          id={listId}
          role="listbox"
          tabIndex={-1}
          aria-labelledby={labelId}
          className="gift-listbox"
          aria-activedescendant={props.tickets[active] ? `${id}-opt-${props.tickets[active].userTicketId}` : undefined}
          onKeyDown={onListKey}
        >
          {props.tickets.map((tk, i) => (
            <li
              key={tk.userTicketId}
              id={`${id}-opt-${tk.userTicketId}`}
              data-index={i}
              role="option"
              aria-label={ticketLabel(tk)}
              aria-selected={v?.userTicketId === tk.userTicketId}
              className={`gift-listbox__option ${i === active ? 'is-active' : ''}`}
              onMouseEnter={() => setActive(i)}
              onClick={() => choose(tk)}
            >
              <span className="gift-option">
                <img
                  className="gift-option__logo"
                  src={assetUrl(tk.ticketLogo ?? tk.eventLogo, props.assetsBaseUrl)}
                  alt=""
                  width={40}
                  height={40}
                />
                <span className="gift-option__text">
                  <span className="gift-option__name">{tk.eventName}</span>
                  <span className="muted small">{tk.ticketName}</span>
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
