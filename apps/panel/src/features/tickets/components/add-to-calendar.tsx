/**
 * "Add to calendar" on the ticket page (issue 23): an .ics download (built in the browser by calendar-file.ts,
 * loaded on the first click) and a Google Calendar link, both with the event's start and end in its time zone.
 */
import { useTranslation } from 'react-i18next';
import type { MyTicket } from '@tp/contract';
import { ticketNumber } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { calendarEntry, googleCalendarUrl } from '../calendar';

export function AddToCalendar(props: { ticket: MyTicket }) {
  const { t } = useTranslation();
  const tk = props.ticket;
  const entry = calendarEntry(tk, t('tickets.number', { number: ticketNumber(tk.userTicketId) }), window.location.href);
  const download = async () => {
    try {
      const { downloadCalendarFile } = await import('../calendar-file');
      downloadCalendarFile(entry, `ticket-${tk.userTicketId}@${window.location.host}`, tk.eventName);
    } catch {
      toast.error(t('request_failed'));
    }
  };
  return (
    <div className="row-wrap" role="group" aria-label={t('ticket.add_to_calendar')}>
      <button type="button" className="link" onClick={() => void download()}>
        {t('ticket.calendar_file')}
      </button>
      <a href={googleCalendarUrl(entry)} target="_blank" rel="noopener noreferrer">
        {t('ticket.calendar_google')}
      </a>
    </div>
  );
}
