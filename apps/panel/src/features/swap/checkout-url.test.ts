import { describe, expect, it } from 'vitest';
import { checkoutUrl, slugify } from './checkout-url';

describe('swap checkout address (spec section 7)', () => {
  it('slugs the event name', () => {
    expect(slugify('Laneway Sessions')).toBe('laneway-sessions');
    expect(slugify('  Río Nights! 2026 ')).toBe('rio-nights-2026');
    expect(slugify('***')).toBe('event');
  });
  it('builds base/locale/slug-eventId/order with the redirect domain and origin', () => {
    const url = checkoutUrl({
      checkoutBaseUrl: 'http://127.0.0.1:8080/checkout/',
      locale: 'es',
      name: 'Laneway Sessions',
      eventId: 2,
      orderIdentifier: 'abc-123',
      redirectDomain: 'http://127.0.0.1:8080/es/?PANEL_TAB=SWAP&USER_TICKET_ID=5',
    });
    expect(url).toBe(
      'http://127.0.0.1:8080/checkout/es/laneway-sessions-2/abc-123?redirectDomain=http%3A%2F%2F127.0.0.1%3A8080%2Fes%2F%3FPANEL_TAB%3DSWAP%26USER_TICKET_ID%3D5&origin=ticket_swap',
    );
    const parsed = new URL(url);
    expect(parsed.searchParams.get('redirectDomain')).toBe('http://127.0.0.1:8080/es/?PANEL_TAB=SWAP&USER_TICKET_ID=5');
    expect(parsed.searchParams.get('origin')).toBe('ticket_swap');
  });
});
