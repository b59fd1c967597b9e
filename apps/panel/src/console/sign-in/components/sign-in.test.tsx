/**
 * Issue 47: the console's sign-in offers "Use a passkey" beside the e-mail where the browser has passkeys. The passkey
 * path asks the server for options, the browser for a passkey, the server to check it, and then opens the console as
 * the code path does; a cancelled prompt leaves the form usable with no error; a refused passkey says so in the error
 * block; a browser without passkeys is not offered the button.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { initConsoleI18n } from '../../i18n';
import { PasskeyCancelled } from '../../../lib/webauthn';
import type * as Webauthn from '../../../lib/webauthn';
import { jsonResponse } from '../../../test/fetch';
import { browser } from '../../../test/passkey-browser';
import { SignIn } from './sign-in';

// The browser's passkey ceremony: a test says what the browser answers (test/passkey-browser.ts).
vi.mock('../../../lib/webauthn', async (original) =>
  (await import('../../../test/passkey-browser')).stubPasskeyBrowser(await original<typeof Webauthn>()),
);

const ASSERTION = { id: 'cred', rawId: 'cred', type: 'public-key', response: {}, clientExtensionResults: {} };
let calls: { url: string; body: unknown }[];
let signInAnswer: () => Response;

beforeAll(async () => {
  await initConsoleI18n();
});
beforeEach(async () => {
  await i18next.changeLanguage('en');
  calls = [];
  signInAnswer = () => jsonResponse({ accessToken: 'holder-token', refreshToken: 'r' });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      calls.push({ url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      if (url === '/v1/auth/passkeys/sign-in/options')
        return Promise.resolve(jsonResponse({ options: { challenge: 'c' } }));
      if (url === '/v1/auth/passkeys/sign-in') return Promise.resolve(signInAnswer());
      return Promise.resolve(jsonResponse({ message: 'api.not_found' }, 404));
    }),
  );
});
afterEach(() => {
  cleanup();
  browser.answer = null;
  vi.unstubAllGlobals();
});

const passkeyButton = () => screen.getByRole('button', { name: 'Use a passkey' });

describe('console sign-in with a passkey', () => {
  it('checks the passkey with the server and opens the console, no e-mail sent', async () => {
    browser.answer = () => Promise.resolve(ASSERTION);
    const onSignedIn = vi.fn(() => Promise.resolve());
    render(<SignIn onSignedIn={onSignedIn} />);
    fireEvent.click(passkeyButton());
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
    expect(calls.map((c) => c.url)).toEqual(['/v1/auth/passkeys/sign-in/options', '/v1/auth/passkeys/sign-in']);
    expect(calls[1].body).toEqual({ response: ASSERTION });
  });

  it('a cancelled prompt leaves the form usable with no error', async () => {
    browser.answer = () => Promise.reject(new PasskeyCancelled());
    const onSignedIn = vi.fn(() => Promise.resolve());
    render(<SignIn onSignedIn={onSignedIn} />);
    fireEvent.click(passkeyButton());
    await waitFor(() => expect((passkeyButton() as HTMLButtonElement).disabled).toBe(false));
    expect(calls.map((c) => c.url)).toEqual(['/v1/auth/passkeys/sign-in/options']);
    expect(screen.queryByRole('alert')?.textContent ?? '').toBe('');
    expect(onSignedIn).not.toHaveBeenCalled();
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'E-mail' }).disabled).toBe(false);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'E-mail me a code' }).disabled).toBe(false);
  });

  it('a passkey the server refuses is said in the error block, in Spanish too', async () => {
    await i18next.changeLanguage('es');
    browser.answer = () => Promise.resolve(ASSERTION);
    signInAnswer = () => jsonResponse({ message: 'api.auth.passkey_failed' }, 400);
    const onSignedIn = vi.fn(() => Promise.resolve());
    render(<SignIn onSignedIn={onSignedIn} />);
    fireEvent.click(screen.getByRole('button', { name: 'Usar una llave de acceso' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        'Esa llave de acceso no ha funcionado. Inténtalo de nuevo o usa un código por correo.',
      ),
    );
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('is not offered where the browser has no passkeys', () => {
    render(<SignIn onSignedIn={() => Promise.resolve()} />);
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    expect(screen.getByRole('button', { name: 'E-mail me a code' })).toBeTruthy();
  });
});
