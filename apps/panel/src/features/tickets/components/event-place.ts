import type { MyTicket } from '@tp/contract';

/**
 * Where an event is, as the ticket page shows it: the venue, street address and city that are known (an organiser
 * may give no address, issue 12), and an OpenStreetMap link at the coordinates, or a map search of the place when
 * the organiser gave none.
 */
export function eventPlace(
  tk: Pick<MyTicket, 'eventVenue' | 'eventAddress1' | 'eventCity' | 'eventLatitude' | 'eventLongitude'>,
): { place: string; mapUrl: string } {
  const place = [tk.eventVenue, tk.eventAddress1, tk.eventCity].filter(Boolean).join(', ');
  const { eventLatitude: lat, eventLongitude: lon } = tk;
  const mapUrl =
    lat !== null && lon !== null
      ? `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`
      : `https://www.openstreetmap.org/search?query=${encodeURIComponent(place)}`;
  return { place, mapUrl };
}
