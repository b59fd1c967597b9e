import { describe, expect, it } from 'vitest';
import { resolveRoute, routeToSearch } from './routing';

const r = (q: string, token: boolean) => resolveRoute(new URLSearchParams(q), token);

describe('routing (spec section 2)', () => {
  it('accepts lower-case tab values', () => {
    expect(r('PANEL_TAB=my_ticket', true).route.tab).toBe('MY_TICKET');
    expect(r('PANEL_TAB=qr&PANEL_OVERLAY_TAB=hub', true).route).toMatchObject({ tab: 'QR', overlay: 'HUB' });
  });
  it('sends a signed-out visitor asking for a valid tab or overlay to LOGIN', () => {
    expect(r('PANEL_TAB=QR', false)).toMatchObject({ route: { tab: 'LOGIN', overlay: null }, redirected: true });
    expect(r('PANEL_OVERLAY_TAB=HUB', false)).toMatchObject({
      route: { tab: 'LOGIN', overlay: null },
      redirected: true,
    });
    expect(r('PANEL_TAB=gift', false).route.tab).toBe('LOGIN');
  });
  it('lets a signed-out visitor stay on OTP and LOGIN', () => {
    expect(r('PANEL_TAB=OTP', false)).toMatchObject({ route: { tab: 'OTP' }, redirected: false });
    expect(r('PANEL_TAB=login', false)).toMatchObject({ route: { tab: 'LOGIN' }, redirected: false });
  });
  it('sends a signed-in user on LOGIN to QR with the HUB open', () => {
    expect(r('PANEL_TAB=LOGIN', true)).toMatchObject({ route: { tab: 'QR', overlay: 'HUB' }, redirected: true });
  });
  it('defaults to LOGIN signed out and QR signed in; unknown tabs are ignored', () => {
    expect(r('', false).route.tab).toBe('LOGIN');
    expect(r('', true).route.tab).toBe('QR');
    expect(r('PANEL_TAB=NOPE', true)).toMatchObject({ route: { tab: 'QR' }, redirected: true });
  });
  it('decodes USER_TICKET_ID and the ticket name, and encodes them back', () => {
    const { route } = r('PANEL_TAB=TICKET&USER_TICKET_ID=12&TICKET_NAME=VIP%2520%2526%2520more', true);
    expect(route).toMatchObject({ userTicketId: '12', ticketName: 'VIP & more' });
    const s = routeToSearch(
      { tab: 'TICKET', ticketName: 'VIP & more' },
      new URLSearchParams('embed=modal&hostOrigin=x'),
    );
    expect(s.get('embed')).toBe('modal');
    expect(decodeURIComponent(s.get('TICKET_NAME')!)).toBe('VIP & more');
  });
  it('reads SETTINGS_TAB', () => {
    expect(r('PANEL_TAB=SETTINGS&SETTINGS_TAB=account_verification', true).route.settingsTab).toBe(
      'ACCOUNT_VERIFICATION',
    );
  });
});
