/**
 * Where an event is, as the ticket page and the e-mails show it (one rule for both): the venue, street address
 * and city that are known (an organiser may give no address, issue 12), and an OpenStreetMap link at the
 * coordinates, or a map search of the place when the organiser gave none.
 */
export function eventPlace(e: {
  venue: string;
  address1: string;
  city: string;
  latitude: number | null;
  longitude: number | null;
}): { place: string; mapUrl: string } {
  const place = [e.venue, e.address1, e.city].filter(Boolean).join(', ');
  const { latitude: lat, longitude: lon } = e;
  const mapUrl =
    lat !== null && lon !== null
      ? `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=16/${lat}/${lon}`
      : `https://www.openstreetmap.org/search?query=${encodeURIComponent(place)}`;
  return { place, mapUrl };
}
