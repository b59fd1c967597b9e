import { describe, expect, it } from 'vitest';
import { eventPlace } from './event-place';

describe('eventPlace', () => {
  const base = { eventVenue: 'The Domain', eventAddress1: 'Art Gallery Rd', eventCity: 'Sydney' };
  it('links the coordinates when the organiser gave them', () => {
    expect(eventPlace({ ...base, eventLatitude: -33.87, eventLongitude: 151.21 })).toEqual({
      place: 'The Domain, Art Gallery Rd, Sydney',
      mapUrl: 'https://www.openstreetmap.org/?mlat=-33.87&mlon=151.21#map=16/-33.87/151.21',
    });
  });
  it('without coordinates or address: the known parts, and a map search of them', () => {
    expect(eventPlace({ ...base, eventAddress1: '', eventLatitude: null, eventLongitude: null })).toEqual({
      place: 'The Domain, Sydney',
      mapUrl: 'https://www.openstreetmap.org/search?query=The%20Domain%2C%20Sydney',
    });
  });
});
