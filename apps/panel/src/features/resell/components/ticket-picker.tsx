/**
 * The ticket dropdown of the resell screen (spec section 2 Resell): a select-only combobox whose
 * options show the ticket's logo and name. Keyboard: arrows move, Enter/Space choose, Escape closes.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronIcon, TicketIcon } from '../../../ui/icons';
import type { ResellableTicket } from '../resell.types';

function Logo(props: { src?: string }) {
  return props.src ? (
    <img className="resell-logo" src={props.src} alt="" width={40} height={40} />
  ) : (
    <span className="resell-logo resell-logo--none">
      <TicketIcon />
    </span>
  );
}

export function TicketPicker(props: {
  label: string;
  tickets: ResellableTicket[];
  value: ResellableTicket | null;
  onChange: (t: ResellableTicket) => void;
  disabled?: boolean;
  logoUrl: (path: string | null) => string | undefined;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const { tickets, value, onChange } = props;

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const show = () => {
    setActive(
      Math.max(
        0,
        tickets.findIndex((x) => x.userTicketId === value?.userTicketId),
      ),
    );
    setOpen(true);
  };
  const choose = (i: number) => {
    const tk = tickets[i];
    if (tk) onChange(tk);
    setOpen(false);
    button.current?.focus();
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) {
        show();
        return;
      }
      setActive((i) => (i + (e.key === 'ArrowDown' ? 1 : -1) + tickets.length) % tickets.length);
    } else if ((e.key === 'Enter' || e.key === ' ') && open) {
      e.preventDefault();
      choose(active);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
    } else if (e.key === 'Home' && open) {
      e.preventDefault();
      setActive(0);
    } else if (e.key === 'End' && open) {
      e.preventDefault();
      setActive(tickets.length - 1);
    }
  };

  return (
    <div className="field resell-picker" ref={root}>
      <span id={`${id}-label`} className="field__label">
        {props.label}
      </span>
      <button
        ref={button}
        type="button"
        role="combobox"
        aria-labelledby={`${id}-label`}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-activedescendant={open ? `${id}-opt-${active}` : undefined}
        disabled={props.disabled}
        className="resell-picker__button"
        onClick={() => (open ? setOpen(false) : show())}
        onKeyDown={onKey}
      >
        {value ? (
          <>
            <Logo src={props.logoUrl(value.ticketLogo)} />
            <span className="resell-picker__name">{value.ticketName}</span>
          </>
        ) : (
          <span className="muted resell-picker__name">{t('resell.choose_ticket')}</span>
        )}
        <span className={`resell-picker__chevron ${open ? 'is-open' : ''}`}>
          <ChevronIcon />
        </span>
      </button>
      {open && (
        <ul id={`${id}-list`} role="listbox" aria-labelledby={`${id}-label`} className="resell-picker__list">
          {tickets.map((tk, i) => (
            <li
              key={tk.userTicketId}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={tk.userTicketId === value?.userTicketId}
              className={`resell-picker__option ${i === active ? 'is-active' : ''}`}
              onMouseEnter={() => setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(i)}
            >
              <Logo src={props.logoUrl(tk.ticketLogo)} />
              <span className="resell-picker__name">
                {tk.ticketName}
                <span className="muted small resell-picker__count">
                  {t('resell.available_count', { count: tk.availableTicketCount })}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
