import type { MyTicket } from '@tp/contract';
import { eventPlace as placeOf } from '@tp/contract/place';

/** Where an event is, as the ticket page shows it: the contract's `eventPlace` (the e-mails use it too). */
export function eventPlace(
  tk: Pick<MyTicket, 'eventVenue' | 'eventAddress1' | 'eventCity' | 'eventLatitude' | 'eventLongitude'>,
): { place: string; mapUrl: string } {
  return placeOf({
    venue: tk.eventVenue,
    address1: tk.eventAddress1,
    city: tk.eventCity,
    latitude: tk.eventLatitude,
    longitude: tk.eventLongitude,
  });
}
