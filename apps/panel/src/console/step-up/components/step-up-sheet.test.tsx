/**
 * Issue 47, decision 048: an organiser call refused for want of a fresh proof of presence (403
 * `api.auth.step_up_required`) opens the console's "Confirm it's you" sheet; once the member proved it (the passkey
 * first when the account has one, else the e-mailed code) the same call is sent again and goes on; Cancel ends it with
 * its refusal. Against a stub API, with the browser's passkey ceremony stubbed.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { initConsoleI18n } from '../../i18n';
import { ApiError, org } from '../../api';
import type * as Webauthn from '../../../lib/webauthn';
import { jsonResponse } from '../../../test/fetch';
import { browser } from '../../../test/passkey-browser';
import { StepUpHost } from './step-up-sheet';

// The browser's passkey ceremony: a test says what the browser answers (test/passkey-browser.ts).
vi.mock('../../../lib/webauthn', async (original) =>
  (await import('../../../test/passkey-browser')).stubPasskeyBrowser(await original<typeof Webauthn>()),
);

let calls: { method: string; url: string; body: unknown }[];
let steppedUp: boolean;

beforeAll(async () => {
  await initConsoleI18n();
});
beforeEach(async () => {
  await i18next.changeLanguage('en');
  calls = [];
  steppedUp = false;
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      if (url === '/v1/org/api-keys')
        return Promise.resolve(
          steppedUp
            ? jsonResponse({ id: 3, prefix: 'tpk_abc', apiKey: 'tpk_abc.secret' }, 201)
            : jsonResponse({ message: 'api.auth.step_up_required', action: 'api_key', maxAgeSeconds: 300 }, 403),
        );
      if (url === '/v1/auth/step-up') return Promise.resolve(jsonResponse({ sentTo: 'owner@harbour.example' }));
      if (url === '/v1/auth/step-up/verify') {
        if ((JSON.parse(init!.body as string) as { otp: string }).otp !== '123456')
          return Promise.resolve(jsonResponse({ message: 'api.auth.wrong_otp' }, 400));
        steppedUp = true;
        return Promise.resolve(jsonResponse({ steppedUpUntil: '2030-01-01T00:05:00.000Z' }));
      }
      if (url === '/v1/auth/passkeys') return Promise.resolve(jsonResponse([{ id: 'cred' }]));
      if (url === '/v1/auth/step-up/passkey/options')
        return Promise.resolve(jsonResponse({ options: { challenge: 'c' } }));
      if (url === '/v1/auth/step-up/passkey') {
        steppedUp = true;
        return Promise.resolve(jsonResponse({ steppedUpUntil: '2030-01-01T00:05:00.000Z' }));
      }
      return Promise.resolve(jsonResponse({ message: 'api.not_found' }, 404));
    }),
  );
});
afterEach(() => {
  cleanup();
  browser.answer = null;
  vi.unstubAllGlobals();
});

const createKey = () => org.POST('/v1/org/api-keys');
const sheet = () => screen.findByRole('dialog', { name: "Confirm it's you" });

describe("the console's step-up sheet", () => {
  it('e-mails a code for the refused action, checks it, and the call goes on', async () => {
    render(<StepUpHost />);
    const created = createKey();
    const dialog = await sheet();
    await waitFor(() =>
      expect(within(dialog).getByRole('status').textContent).toBe(
        'To create an API key, enter the code we sent to owner@harbour.example.',
      ),
    );
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Code' }), { target: { value: '000000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toBe('That code is not right.'));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Code' }), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await created).toEqual({ id: 3, prefix: 'tpk_abc', apiKey: 'tpk_abc.secret' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.find((c) => c.url === '/v1/auth/step-up')?.body).toEqual({ action: 'api_key' });
    expect(calls.filter((c) => c.url === '/v1/org/api-keys')).toHaveLength(2);
  });

  it('offers the passkey first when the account has one (in Spanish)', async () => {
    await i18next.changeLanguage('es');
    browser.answer = () => Promise.resolve({ id: 'cred' });
    render(<StepUpHost />);
    const created = createKey();
    const dialog = await screen.findByRole('dialog', { name: 'Confirma que eres tú' });
    expect(within(dialog).getByRole('status').textContent).toBe(
      'Para crear una clave de API, confirma que eres tú con tu llave de acceso.',
    );
    const use = within(dialog).getByRole('button', { name: 'Usar tu llave de acceso' });
    await waitFor(() => expect((use as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(use);
    expect(await created).toEqual({ id: 3, prefix: 'tpk_abc', apiKey: 'tpk_abc.secret' });
    expect(calls.some((c) => c.url === '/v1/auth/step-up')).toBe(false); // no code was e-mailed
  });

  it('Cancel ends the call with its refusal', async () => {
    render(<StepUpHost />);
    const created = createKey();
    const dialog = await sheet();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const refused = await created.catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect([(refused as ApiError).message, (refused as ApiError).status]).toEqual(['api.auth.step_up_required', 403]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.filter((c) => c.url === '/v1/org/api-keys')).toHaveLength(1);
  });
});
