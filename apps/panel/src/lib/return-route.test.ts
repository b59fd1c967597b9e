/** Issue 40 point 1: the screen a signed-out holder's link asked for is kept through the sign-in, for a while. */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveRoute } from './routing';
import { RETURN_TTL_MS, rememberReturn, routeAfterSignIn, takeReturn } from './return-route';

const r = (q: string) => resolveRoute(new URLSearchParams(q), false);

afterEach(() => localStorage.clear());

describe('the screen asked for before sign-in', () => {
  it('is named by the redirect to LOGIN, with its ticket', () => {
    expect(r('PANEL_TAB=TICKET&USER_TICKET_ID=42')).toMatchObject({
      route: { tab: 'LOGIN' },
      redirected: true,
      wanted: { tab: 'TICKET', userTicketId: '42', overlay: null },
    });
    expect(r('PANEL_TAB=redeem').wanted).toMatchObject({ tab: 'REDEEM' });
    expect(r('PANEL_OVERLAY_TAB=HUB').wanted).toMatchObject({ tab: 'QR', overlay: 'HUB' });
  });
  it('is not named for the sign-in steps or with nothing asked', () => {
    expect(r('PANEL_TAB=PERSONAL_DATA').wanted).toBeUndefined();
    expect(r('PANEL_TAB=LOGIN').wanted).toBeUndefined();
    expect(r('').wanted).toBeUndefined();
    expect(resolveRoute(new URLSearchParams('PANEL_TAB=REDEEM'), true).wanted).toBeUndefined();
  });
  it('is where the panel goes after sign-in, once', () => {
    rememberReturn(r('PANEL_TAB=TICKET&USER_TICKET_ID=42').wanted!, 1_000);
    expect(routeAfterSignIn(2_000)).toEqual({
      tab: 'TICKET',
      overlay: null,
      userTicketId: '42',
      ticketName: null,
      settingsTab: null,
    });
    expect(takeReturn(2_000)).toBeNull();
  });
  it('with nothing kept, or kept too long ago, the panel goes to the QR pass with no hub', () => {
    const pass = { tab: 'QR', overlay: null, userTicketId: null, ticketName: null, settingsTab: null };
    expect(routeAfterSignIn()).toEqual(pass);
    rememberReturn(r('PANEL_TAB=REDEEM').wanted!, 1_000);
    expect(routeAfterSignIn(1_000 + RETURN_TTL_MS + 1)).toEqual(pass);
    localStorage.setItem('tp.returnTo', '{not json');
    expect(routeAfterSignIn()).toEqual(pass);
  });
});
