/**
 * The ticket dropdown of the resell screen (spec section 2 Resell): the listable tickets in the panel's
 * listbox (ui/listbox `Select`); options show the ticket's logo, name, ticket number (issue 23: entries of the same
 * event and type told apart) and how many are available.
 */
import { useTranslation } from 'react-i18next';
import { TicketIcon } from '../../../ui/icons';
import { Select } from '../../../ui/listbox';
import { ticketNumber } from '../../../lib/format';
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
  return (
    <Select
      label={props.label}
      items={props.tickets}
      value={props.value}
      onChange={props.onChange}
      disabled={props.disabled}
      itemKey={(tk) => tk.userTicketId}
      renderValue={(tk) => (
        <span className="resell-option">
          <Logo src={props.logoUrl(tk.ticketLogo)} />
          <span className="resell-option__name">
            {tk.ticketName}
            <span className="muted small resell-option__count">
              {t('tickets.number', { number: ticketNumber(tk.userTicketId) })}
            </span>
          </span>
        </span>
      )}
      renderOption={(tk) => (
        <span className="resell-option">
          <Logo src={props.logoUrl(tk.ticketLogo)} />
          <span className="resell-option__name">
            {tk.ticketName}
            <span className="muted small resell-option__count">
              {t('tickets.number', { number: ticketNumber(tk.userTicketId) })} ·{' '}
              {t('resell.available_count', { count: tk.availableTicketCount })}
            </span>
          </span>
        </span>
      )}
      placeholder={<span className="muted">{t('resell.choose_ticket')}</span>}
    />
  );
}
