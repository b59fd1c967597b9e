/**
 * The ticket dropdown of the resell screen (spec section 2 Resell): the listable tickets in the panel's
 * listbox (ui/listbox `Select`); options show the ticket's logo, name, ticket number (issue 23: entries of the same
 * event and type told apart) and how many are available.
 */
import { useTranslation } from 'react-i18next';
import { Select } from '../../../ui/listbox';
import { Thumb } from '../../../ui/thumb';
import { ticketNumber } from '../../../lib/format';
import type { ResellableTicket } from '../resell.types';

/** A ticket as the picker shows it, chosen or in the list: its logo, name and number, then `extra` if any. */
function TicketOption(props: {
  ticket: ResellableTicket;
  logoUrl: (path: string | null) => string | undefined;
  extra?: string;
}) {
  const { t } = useTranslation();
  const tk = props.ticket;
  return (
    <span className="resell-option">
      <Thumb src={props.logoUrl(tk.ticketLogo)} size={40} icon />
      <span className="resell-option__name">
        {tk.ticketName}
        <span className="muted small resell-option__count">
          {t('tickets.number', { number: ticketNumber(tk.userTicketId) })}
          {props.extra}
        </span>
      </span>
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
      renderValue={(tk) => <TicketOption ticket={tk} logoUrl={props.logoUrl} />}
      renderOption={(tk) => (
        <TicketOption
          ticket={tk}
          logoUrl={props.logoUrl}
          extra={` · ${t('resell.available_count', { count: tk.availableTicketCount })}`}
        />
      )}
      placeholder={<span className="muted">{t('resell.choose_ticket')}</span>}
    />
  );
}
