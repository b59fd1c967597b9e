/**
 * Issue 47: a call that moves a ticket or money and is refused for want of a fresh proof of presence (403
 * `api.auth.step_up_required`) opens the step-up sheet over the screen (app/signed-in-effects.tsx): a code is e-mailed
 * for the refused action at once, the person types it, and the same call goes on; Cancel ends the call with its
 * refusal. In both languages, with the sheet's own catalogue.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import SignedInEffects from './signed-in-effects';
import { client } from '../lib/api-client';
import { initI18n, loadLaterTexts } from '../lib/i18n';
import { renderPanel } from '../test/render';
import { fakeApi, jsonResponse, type FakeRequest } from '../test/fetch';
import { aUser, signedInForEachTest } from '../test/fixtures';
import { PasskeyCancelled } from '../lib/webauthn';
import type * as Webauthn from '../lib/webauthn';

// The browser's passkey ceremony (lib/webauthn.ts `getPasskey`): a test says what the browser answers.
const browser = vi.hoisted(() => ({ answer: null as null | (() => Promise<unknown>) }));
vi.mock('../lib/webauthn', async (original) => ({
  ...(await original<typeof Webauthn>()),
  passkeysSupported: () => browser.answer !== null,
  getPasskey: () => browser.answer!(),
}));

// The sheet and its catalogue load lazily: slow on a loaded CI machine.
configure({ asyncUtilTimeout: 10_000 });
/** A test's limit (ms). */
const SLOW = 20_000;
signedInForEachTest();
afterEach(async () => {
  browser.answer = null;
  await initI18n('en');
  await loadLaterTexts();
});

const GIFT = { userTicketId: 7, username: 'bob#7315' };
let calls: FakeRequest[];

/** The API: the gift is refused until a step-up code `123456` was verified; `wrong` first refuses `000000`. */
function api() {
  calls = [];
  let steppedUp = false;
  fakeApi((r) => {
    calls.push(r);
    if (r.path === '/mobile/giftTicket')
      return steppedUp
        ? jsonResponse({})
        : jsonResponse({ message: 'api.auth.step_up_required', action: 'gift', maxAgeSeconds: 300 }, 403);
    if (r.path === '/auth/step-up') return jsonResponse({ sentTo: 'alice@example.com', resendAfterSeconds: 60 });
    if (r.path === '/auth/step-up/verify') {
      if ((r.body as { otp: string }).otp !== '123456') return jsonResponse({ message: 'api.auth.wrong_otp' }, 400);
      steppedUp = true;
      return jsonResponse({ steppedUpUntil: '2030-01-01T00:05:00.000Z' });
    }
    if (r.path === '/auth/passkeys') return jsonResponse(browser.answer ? [PASSKEY] : []);
    if (r.path === '/auth/step-up/passkey/options') return jsonResponse({ options: { challenge: 'c' } });
    if (r.path === '/auth/step-up/passkey') {
      steppedUp = true;
      return jsonResponse({ steppedUpUntil: '2030-01-01T00:05:00.000Z' });
    }
    if (r.path === '/auth/me') return jsonResponse(aUser());
    return jsonResponse([]);
  });
}

const PASSKEY = {
  id: 'pk',
  name: 'Chrome · Android',
  createdAt: '2026-11-01T00:00:00.000Z',
  lastUsedAt: null,
  backedUp: true,
};
const ASSERTION = {
  id: 'pk',
  rawId: 'pk',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
};

/** Types `code` and presses Confirm once the form takes it (its validation is asynchronous). */
const confirmCode = async (code: string) => {
  const input = screen.getByRole('textbox', { name: 'Code' });
  fireEvent.change(input, { target: { value: code } });
  const submit = screen.getByRole('button', { name: 'Confirm' });
  await waitFor(() => expect(submit).toHaveProperty('disabled', false));
  fireEvent.click(submit);
};

describe('the step-up sheet', () => {
  it(
    'asks for a code for the refused action, refuses a wrong one, and the gift goes on after the right one',
    async () => {
      api();
      renderPanel(<SignedInEffects />);
      const gift = client.POST('/v1/mobile/giftTicket', { body: GIFT });
      const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
      await waitFor(() =>
        expect(dialog.textContent).toContain('To gift a ticket, enter the code we sent to alice@example.com.'),
      );
      expect(calls.find((c) => c.path === '/auth/step-up')?.body).toEqual({ action: 'gift' });
      await confirmCode('000000');
      expect(await screen.findByText('Wrong OTP')).toBeTruthy();
      await confirmCode('123456');
      await expect(gift).resolves.toEqual({});
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(calls.filter((c) => c.path === '/mobile/giftTicket').map((c) => c.body)).toEqual([GIFT, GIFT]);
    },
    SLOW,
  );

  it(
    'Cancel ends the call with its refusal and sends it no more',
    async () => {
      api();
      renderPanel(<SignedInEffects />);
      const gift = client.POST('/v1/mobile/giftTicket', { body: GIFT });
      const failed = expect(gift).rejects.toMatchObject({ message: 'api.auth.step_up_required', status: 403 });
      await screen.findByRole('dialog', { name: "Confirm it's you" });
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
      await failed;
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(calls.filter((c) => c.path === '/mobile/giftTicket')).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'speaks Spanish on a Spanish panel',
    async () => {
      await initI18n('es');
      api();
      renderPanel(<SignedInEffects />);
      void client.POST('/v1/mobile/giftTicket', { body: GIFT }).catch(() => undefined);
      const dialog = await screen.findByRole('dialog', { name: 'Confirma que eres tú' });
      await waitFor(() =>
        expect(dialog.textContent).toContain(
          'Para regalar una entrada, escribe el código que hemos enviado a alice@example.com.',
        ),
      );
      fireEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    },
    SLOW,
  );

  it(
    'with a passkey on the account: "Use your passkey" first, no code sent; cancelled in the browser, said in words; then it lets the gift go on',
    async () => {
      let answers = 0;
      browser.answer = () => (answers++ === 0 ? Promise.reject(new PasskeyCancelled()) : Promise.resolve(ASSERTION));
      api();
      renderPanel(<SignedInEffects />);
      const gift = client.POST('/v1/mobile/giftTicket', { body: GIFT });
      const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
      await waitFor(() =>
        expect(dialog.textContent).toContain("To gift a ticket, confirm it's you with your passkey."),
      );
      const use = screen.getByRole('button', { name: 'Use your passkey' });
      await waitFor(() => expect(use).toHaveProperty('disabled', false));
      fireEvent.click(use);
      expect(await screen.findByRole('alert')).toHaveProperty(
        'textContent',
        'No passkey was given. Try again, or sign in with a code by e-mail.',
      );
      fireEvent.click(screen.getByRole('button', { name: 'Use your passkey' }));
      await expect(gift).resolves.toEqual({});
      expect(calls.find((c) => c.path === '/auth/step-up/passkey')?.body).toEqual({ response: ASSERTION });
      expect(calls.some((c) => c.path === '/auth/step-up')).toBe(false);
    },
    SLOW,
  );

  it(
    '"Send me a code instead" sends the e-mail code',
    async () => {
      browser.answer = () => Promise.resolve(ASSERTION);
      api();
      renderPanel(<SignedInEffects />);
      void client.POST('/v1/mobile/giftTicket', { body: GIFT }).catch(() => undefined);
      await screen.findByRole('button', { name: 'Use your passkey' });
      fireEvent.click(screen.getByRole('button', { name: 'Send me a code instead' }));
      const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
      await waitFor(() =>
        expect(dialog.textContent).toContain('To gift a ticket, enter the code we sent to alice@example.com.'),
      );
      fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    },
    SLOW,
  );
});
