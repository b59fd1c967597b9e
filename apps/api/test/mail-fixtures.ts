/** Inputs for rendering the e-mail templates directly (no app): an event, its ticket and both brands. */
import { mailBrand } from '../src/providers/mail/brand.js';
import type { MailTicket } from '../src/providers/mail/templates.js';

/** The product's look (no organisation), as the test config names it. */
export const productBrand = mailBrand(null, { productName: 'Ticket Panel', publicUrl: 'http://panel.test' });

/**
 * An organisation's brand: its name, its logo (fetched: the mail carries it inline) and a light orange to be darkened
 * to 4.5:1.
 */
export const acmeBrand = mailBrand(
  { slug: 'acme', name: 'Acme Events', logoUrl: '/demo/acme-logo.svg', primaryColor: '#ff9900' },
  { productName: 'Ticket Panel', publicUrl: 'http://panel.test' },
  true,
);

/** A ticket for an evening in Sydney (08:00 UTC is 19:00 AEDT). */
export const sampleTicket = (eventName = 'Laneway Sessions', ticketName = 'General Admission'): MailTicket => ({
  calendarId: 'ticket-1',
  ticketName,
  event: {
    name: eventName,
    startsAt: new Date('2026-12-01T08:00:00Z'),
    endsAt: new Date('2026-12-01T12:00:00Z'),
    timeZone: 'Australia/Sydney',
    venue: 'Sydney Showground',
    address1: '1 Showground Rd',
    city: 'Sydney',
    latitude: -33.84,
    longitude: 151.07,
  },
});
