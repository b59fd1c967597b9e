/**
 * The gift screen's ticket dropdown (spec section 2 Gift): the holder's upcoming tickets in the panel's
 * listbox (ui/listbox `Select`), each with its logo, name and ticket number (issue 23: tickets of the same event
 * and type told apart); busy while the choice is verified.
 */
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { assetUrl, ticketNumber } from '../../../lib/format';
import { Select } from '../../../ui/listbox';
import { Thumb } from '../../../ui/thumb';

/** "Event · Ticket type · #number", the accessible and visible name of a ticket. */
export const ticketLabel = (tk: MyTicket) => `${tk.eventName} · ${tk.ticketName} · ${ticketNumber(tk.userTicketId)}`;

function TicketOption(props: { ticket: MyTicket; assetsBaseUrl?: string }) {
  const tk = props.ticket;
  return (
    <span className="gift-option">
      <Thumb src={assetUrl(tk.ticketLogo ?? tk.eventLogo, props.assetsBaseUrl)} size={40} />
      <span className="gift-option__text">
        <span className="gift-option__name">{tk.eventName}</span>
        <span className="muted small">
          {tk.ticketName} · {ticketNumber(tk.userTicketId)}
        </span>
      </span>
    </span>
  );
}

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
  const option = (tk: MyTicket) => <TicketOption ticket={tk} assetsBaseUrl={props.assetsBaseUrl} />;
  return (
    <Select
      label={t('gift.ticket_label')}
      items={props.tickets}
      value={props.value}
      onChange={props.onChange}
      itemKey={(tk) => tk.userTicketId}
      optionLabel={ticketLabel}
      renderOption={option}
      renderValue={option}
      placeholder={<span className="muted">{t('gift.ticket_placeholder')}</span>}
      busy={props.busy}
      invalid={props.invalid}
      describedBy={props.describedBy}
    />
  );
}
