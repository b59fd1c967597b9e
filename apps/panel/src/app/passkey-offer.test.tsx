/**
 * Issue 47: after a sign-in, the signed-in panel offers a passkey once (app/signed-in-effects.tsx): only in a browser
 * with passkeys, when the account has none, once a session (the access token's `sid`), and "Not now" holds on this
 * device for 30 days. The browser's half (lib/webauthn) is mocked; the API through the fake fetch.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import SignedInEffects from './signed-in-effects';
import { NOT_NOW_MS, passkeyOfferDue } from '../features/settings/passkey-offer-state';
import { renderPanel } from '../test/render';
import { fakeApi, jsonResponse, type FakeRequest } from '../test/fetch';
import { aUser } from '../test/fixtures';

const webauthn = vi.hoisted(() => ({ supported: true, create: vi.fn() }));
vi.mock('../lib/webauthn', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  passkeysSupported: () => webauthn.supported,
  createPasskey: webauthn.create,
}));

// The offer and its catalogue load lazily: slow on a loaded CI machine.
configure({ asyncUtilTimeout: 10_000 });

const OFFER = 'Sign in faster next time with a passkey';
const PHONE = {
  id: 'c1',
  name: 'Chrome · Android',
  createdAt: '2026-11-20T09:00:00.000Z',
  lastUsedAt: null,
  backedUp: true,
};
let passkeys: unknown[];
let calls: FakeRequest[];

/** Signs session `sid` in: an access token whose payload names it (the panel reads it unverified). */
const signIn = (sid: string) =>
  localStorage.setItem('tp.accessToken', `h.${btoa(JSON.stringify({ sub: '1', sid })).replace(/=+$/, '')}.s`);

beforeEach(() => {
  localStorage.clear();
  webauthn.supported = true;
  webauthn.create.mockReset();
  window.history.replaceState(null, '', '/en/?PANEL_TAB=QR');
  passkeys = [];
  calls = [];
  fakeApi((r) => {
    calls.push(r);
    if (r.path === '/auth/passkeys') return jsonResponse(passkeys);
    if (r.path === '/auth/passkeys/register/options') return jsonResponse({ options: { pubKeyCredParams: [] } });
    if (r.path === '/auth/passkeys/register') return jsonResponse(PHONE);
    if (r.path === '/auth/me') return jsonResponse(aUser());
    return jsonResponse([]);
  });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the offer of a passkey after a sign-in', () => {
  it('is made once a session; "Not now" keeps it away on this device for 30 days', async () => {
    signIn('s1');
    renderPanel(<SignedInEffects />);
    const offer = await screen.findByRole('dialog', { name: OFFER });
    expect(offer.textContent).toContain(
      'Sign in with your fingerprint, face or screen lock instead of a code by e-mail.',
    );
    fireEvent.click(within(offer).getByRole('button', { name: 'Not now' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Another sign-in within 30 days: not offered; after them, offered again.
    signIn('s2');
    expect(passkeyOfferDue()).toBe(false);
    expect(passkeyOfferDue(Date.now() + NOT_NOW_MS - 60_000)).toBe(false);
    expect(passkeyOfferDue(Date.now() + NOT_NOW_MS + 60_000)).toBe(true);
  });

  it('is not made twice in one session, even unanswered', async () => {
    signIn('s1');
    const first = renderPanel(<SignedInEffects />);
    await screen.findByRole('dialog', { name: OFFER });
    first.unmount();
    // A reload of the same session.
    renderPanel(<SignedInEffects />);
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('dialog')).toBeNull();
    // The next sign-in is offered again.
    signIn('s2');
    expect(passkeyOfferDue()).toBe(true);
  });

  it('adds a passkey from the offer and closes it', async () => {
    webauthn.create.mockResolvedValue({ id: 'c1' });
    signIn('s1');
    renderPanel(<SignedInEffects />);
    const offer = await screen.findByRole('dialog', { name: OFFER });
    fireEvent.click(within(offer).getByRole('button', { name: 'Add a passkey' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.some((c) => c.path === '/auth/passkeys/register' && c.method === 'POST')).toBe(true);
  });

  it('is not made to an account that has a passkey, nor in a browser without them', async () => {
    passkeys = [PHONE];
    signIn('s1');
    renderPanel(<SignedInEffects />);
    await waitFor(() => expect(calls.some((c) => c.path === '/auth/passkeys')).toBe(true));
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.queryByRole('dialog')).toBeNull();
    webauthn.supported = false;
    signIn('s2');
    expect(passkeyOfferDue()).toBe(false);
  });
});
