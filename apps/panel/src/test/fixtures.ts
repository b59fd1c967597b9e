/**
 * Test data and set-up shared by the panel's unit tests: a complete holder (`aUser`) and ticket (`aTicket`) and the panel's configuration (`aPanelConfig`)
 * as the API sends them (the contract's `User` and `MyTicket`), each with only what a test cares about given
 * in `over`; the console's event (`aConsoleEvent`); and `signedInForEachTest`, the set-up of a file whose tests render as a signed-in holder.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import type { MyTicket, PanelConfig, User } from '@tp/contract';
import type { EventItem } from '../console/events-list.api';

/** Alice Smith (`alice`), English, with no phone number or picture; `over` replaces any field. */
export function aUser(over: Partial<User> = {}): User {
  return {
    email: 'alice@example.com',
    givenName: 'Alice',
    familyName: 'Smith',
    middleName: null,
    name: 'Alice Smith',
    nickname: 'alice',
    preferredUsername: 'alice',
    uniqueID: 'u1',
    picture: null,
    phoneNumber: null,
    locale: 'en',
    address: null,
    birthdate: null,
    gender: null,
    profile: null,
    website: null,
    zoneInfo: null,
    reminders: true,
    ...over,
  };
}

/**
 * An unused General admission ticket to Harbour Lights Festival (The Domain, Sydney; 2030-01-01 20:00-23:00
 * UTC), not live, not giftable, resellable or swappable, with one unused benefit; `over` replaces any field.
 */
export function aTicket(userTicketId: number, over: Partial<MyTicket> = {}): MyTicket {
  return {
    userTicketId,
    ticketLogo: null,
    ticketName: 'General admission',
    ticketDescription: null,
    eventName: 'Harbour Lights Festival',
    eventCity: 'Sydney',
    eventVenue: 'The Domain',
    eventAddress1: '1 Art Gallery Rd',
    eventLatitude: null,
    eventLongitude: null,
    eventDescription: null,
    eventLogo: null,
    eventImage: null,
    eventStartDateTime: '2030-01-01T20:00:00.000Z',
    eventEndDateTime: '2030-01-01T23:00:00.000Z',
    eventTimeZone: 'UTC',
    isLive: false,
    isGiftable: false,
    isResellable: false,
    isSwappable: false,
    isReturnedToExchange: false,
    eventAccessStatus: 'UNUSED',
    eventAccessUsedOn: null,
    totalBenefitCount: 1,
    totalBenefitUsedCount: 0,
    benefits: [],
    ...over,
  };
}

/**
 * Each test of the file starts signed in (an access token in an otherwise empty localStorage) and ends
 * unmounted, with localStorage empty and every `vi` mock restored.
 */
export function signedInForEachTest(): void {
  beforeEach(() => {
    localStorage.clear();
    localStorage.setItem('tp.accessToken', 'token');
  });
  afterEach(() => {
    cleanup();
    localStorage.clear();
    vi.restoreAllMocks();
  });
}

/**
 * The console's event `evt-1`, Harbour Lights at The Pier, Sydney (1 March 2027, 20:00–24:00 local time), not
 * cancelled, with nothing optional given; `over` replaces any field.
 */
export function aConsoleEvent(over: Partial<EventItem> = {}): EventItem & { externalId: string } {
  return {
    name: 'Harbour Lights',
    venue: 'The Pier',
    city: 'Sydney',
    country: 'AU',
    startsAt: '2027-03-01T09:00:00Z',
    endsAt: '2027-03-01T13:00:00Z',
    timeZone: 'Australia/Sydney',
    address: '',
    latitude: null,
    longitude: null,
    description: null,
    imageUrl: null,
    logoUrl: null,
    passRevealAt: null,
    transfersCloseAt: null,
    cancelledAt: null,
    cancelReason: null,
    ...over,
    externalId: over.externalId ?? 'evt-1',
  };
}

/** The panel's configuration (GET /v1/config) as a test sets it: dev, no organisation, no wallets; `over` changes. */
export function aPanelConfig(over: Partial<PanelConfig> = {}): PanelConfig {
  return {
    isDev: true,
    checkoutBaseUrl: '',
    stripePublishableKey: '',
    orgName: null,
    orgLogo: null,
    orgWebsite: null,
    productName: 'P',
    productSiteUrl: '',
    helpCenterUrl: '',
    appUrl: '',
    assetsBaseUrl: '',
    twitterVia: 'x',
    wallets: { apple: false, google: false },
    ...over,
  };
}
