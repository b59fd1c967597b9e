import { assetUrl, formatDate } from '../../../lib/format';
import type { SwapTicket } from '../api/swappable-tickets.api';

/**
 * A swap ticket's card fields (SwapCard props): logo under `assetsBaseUrl`, name, event, price (cents) and
 * currency, the event's start in its own time zone and the venue with its city (each left out when empty).
 */
export const cardFields = (x: SwapTicket, assetsBaseUrl: string | undefined) => ({
  image: assetUrl(x.logo, assetsBaseUrl),
  title: x.name,
  subtitle: x.eventName,
  price: x.price,
  currencySymbol: x.currencySymbol,
  currencyCode: x.currencyCode,
  date: x.eventStartDateTime ? formatDate(x.eventStartDateTime, x.eventTimeZone) : undefined,
  venue: [x.eventVenue, x.eventCity].filter(Boolean).join(', ') || undefined,
});
