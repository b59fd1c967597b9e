/**
 * Issue 47's conditional UI: the e-mail field's focus offers the passkeys in its autofill (features/auth/passkey-sign-in.ts
 * with `autofill`), asked again with fresh options before the server's challenge lapses (lib/webauthn.ts
 * `getPasskeyByAutofill`), for as long as LOGIN shows the field, and once at a time. The library and the API are mocked.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const mocks = vi.hoisted(() => ({
  supported: true,
  signIn: vi.fn(),
  finish: vi.fn(),
  toastError: vi.fn(),
  startAuthentication: vi.fn(),
  cancelCeremony: vi.fn(),
}));
vi.mock('./api/passkeys.api', () => ({ signInWithPasskey: mocks.signIn }));
vi.mock('./finish-sign-in', () => ({ finishSignIn: mocks.finish }));
vi.mock('../../lib/toast', () => ({ toast: { error: mocks.toastError } }));
vi.mock('../../lib/feature-catalogues', () => ({ loadCatalogue: () => Promise.resolve() }));
vi.mock('@simplewebauthn/browser', () => ({
  browserSupportsWebAuthnAutofill: () => Promise.resolve(mocks.supported),
  startAuthentication: mocks.startAuthentication,
  WebAuthnAbortService: { cancelCeremony: mocks.cancelCeremony },
}));

const { passkeySignIn } = await import('./passkey-sign-in');
const { PasskeyCancelled, getPasskeyByAutofill } = await import('../../lib/webauthn');

const PAIR = { accessToken: 'a', refreshToken: 'r' };

/** LOGIN's e-mail field, as the login screen draws it. */
function emailField() {
  const input = document.createElement('input');
  input.setAttribute('autocomplete', 'email webauthn');
  document.body.append(input);
  return input;
}

beforeEach(() => {
  vi.resetAllMocks();
  mocks.supported = true;
  document.body.innerHTML = '';
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the passkey offered in the e-mail field’s autofill', () => {
  it('asks again while the field is there when an offer lapses, then signs in with the one picked', async () => {
    emailField();
    mocks.signIn.mockResolvedValueOnce(null).mockResolvedValueOnce(null).mockResolvedValueOnce(PAIR);
    await passkeySignIn(true);
    expect(mocks.signIn.mock.calls).toEqual([[true], [true], [true]]);
    expect(mocks.finish).toHaveBeenCalledWith(expect.anything(), PAIR);
  });

  it('stops asking once the field is gone (the code was asked for instead), and says nothing', async () => {
    const field = emailField();
    mocks.signIn.mockImplementation(() => {
      field.remove();
      return Promise.resolve(null);
    });
    await passkeySignIn(true);
    expect(mocks.signIn).toHaveBeenCalledTimes(1);
    expect(mocks.finish).not.toHaveBeenCalled();
    expect(mocks.toastError).not.toHaveBeenCalled();
  });

  it('runs one offer at a time, none where the browser has no autofill for passkeys; a cancelled one ends quietly', async () => {
    emailField();
    let cancel: (err: unknown) => void = () => undefined;
    mocks.signIn.mockImplementationOnce(() => new Promise((_, reject) => (cancel = reject)));
    const first = passkeySignIn(true);
    await passkeySignIn(true); // the field focused again, while the first still asks whether autofill is there
    await vi.waitFor(() => expect(mocks.signIn).toHaveBeenCalledTimes(1));
    // "Use a passkey" pressed: the library aborts the offer, which ends without a word.
    cancel(new PasskeyCancelled());
    await first;
    expect(mocks.toastError).not.toHaveBeenCalled();
    mocks.supported = false;
    await passkeySignIn(true);
    expect(mocks.signIn).toHaveBeenCalledTimes(1);
    // The button's own refusal is said.
    mocks.signIn.mockRejectedValueOnce(new PasskeyCancelled());
    await passkeySignIn();
    expect(mocks.toastError).toHaveBeenCalledTimes(1);
  });
});

describe('getPasskeyByAutofill', () => {
  const options = { challenge: 'c', timeout: 120_000, rpId: 'localhost' };

  it('asks the library for the autofill, and lapses 15 s before the challenge does: null, to ask again', async () => {
    vi.useFakeTimers();
    let abort: (err: unknown) => void = () => undefined;
    mocks.startAuthentication.mockImplementation(() => new Promise((_, reject) => (abort = reject)));
    mocks.cancelCeremony.mockImplementation(() => abort(new Error('AbortError')));
    const answer = getPasskeyByAutofill(options);
    await vi.advanceTimersByTimeAsync(104_999);
    expect(mocks.cancelCeremony).not.toHaveBeenCalled();
    expect(mocks.startAuthentication).toHaveBeenCalledWith(expect.objectContaining({ useBrowserAutofill: true }));
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).resolves.toBeNull();
  });

  it('a refusal before it lapses (another ceremony took over) is PasskeyCancelled; a pick is the answer', async () => {
    mocks.startAuthentication.mockRejectedValueOnce(new Error('AbortError'));
    await expect(getPasskeyByAutofill(options)).rejects.toBeInstanceOf(PasskeyCancelled);
    mocks.startAuthentication.mockResolvedValueOnce({ id: 'cred' });
    await expect(getPasskeyByAutofill(options)).resolves.toEqual({ id: 'cred' });
    expect(mocks.cancelCeremony).not.toHaveBeenCalled();
  });
});
