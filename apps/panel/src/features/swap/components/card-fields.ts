import { formatDate } from '../../../lib/format';
import type { SwapTicket } from '../api/swappable-tickets.api';

/** The card's date line: the event's start in its own time zone, or nothing when the event has no date. */
export const cardDate = (x: SwapTicket) =>
  x.eventStartDateTime ? formatDate(x.eventStartDateTime, x.eventTimeZone) : undefined;

/** The card's venue line: venue and city joined, or nothing when both are empty. */
export const cardVenue = (x: SwapTicket) => [x.eventVenue, x.eventCity].filter(Boolean).join(', ') || undefined;
