/**
 * Passkeys in the browser (issue 47, decision 049): `@simplewebauthn/browser`, loaded only when a passkey is made or
 * used (never on the LOGIN screen's first load: its byte budget is spent). The options come from the server's
 * `…/options` routes as JSON; the answers go back as JSON.
 *
 * A refusal by the browser or the person (cancelled, timed out, not allowed in this frame) is one error,
 * `PasskeyCancelled`, which the screens say in words and answer with the e-mail code.
 */
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import type * as BrowserLib from '@simplewebauthn/browser';

/** The library's module, loaded on first use. */
type Browser = typeof BrowserLib;

/** The browser, or the person, did not give a passkey (cancelled, timed out, not allowed here). */
export class PasskeyCancelled extends Error {
  constructor() {
    super('passkey_cancelled');
  }
}

const TRANSPORTS: readonly string[] = ['ble', 'hybrid', 'internal', 'nfc', 'usb'];
const isTransport = (t: string): t is AuthenticatorTransport => TRANSPORTS.includes(t);

/** A credential as the server names it (its `type` is always `public-key`). */
interface Descriptor {
  id: string;
  type: string;
  transports?: string[];
}
const descriptors = (list: Descriptor[] | undefined) =>
  list?.map((c) => ({ id: c.id, type: 'public-key' as const, transports: c.transports?.filter(isTransport) }));

/** Whether this browser can make and use passkeys at all (WebAuthn present; a frame may still refuse). */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

/** Runs a browser ceremony; any refusal by the browser becomes `PasskeyCancelled`. */
async function ceremony<T>(run: (lib: Browser) => Promise<T>): Promise<T> {
  const lib = await import('@simplewebauthn/browser');
  try {
    return await run(lib);
  } catch {
    throw new PasskeyCancelled();
  }
}

/**
 * Asks the browser for a passkey of this site for `options` (a sign-in's or a step-up's).
 * @throws PasskeyCancelled
 */
export function getPasskey(
  options: Omit<PublicKeyCredentialRequestOptionsJSON, 'allowCredentials'> & { allowCredentials?: Descriptor[] },
): Promise<AuthenticationResponseJSON> {
  const optionsJSON = { ...options, allowCredentials: descriptors(options.allowCredentials) };
  return ceremony((lib) => lib.startAuthentication({ optionsJSON }));
}

/** Starts loading the library when a passkey is about to be asked for, so that its download overlaps the options'. */
export const preloadPasskeys = (): void => void import('@simplewebauthn/browser');

/** Whether the browser offers passkeys in a field's autofill (conditional UI). */
export const passkeyAutofillSupported = async (): Promise<boolean> =>
  (await import('@simplewebauthn/browser')).browserSupportsWebAuthnAutofill();

/**
 * Offers this site's passkeys in the autofill of the field whose `autocomplete` ends in `webauthn` (conditional UI,
 * issue 47), for a sign-in's `options`. The offer stays until the person picks one, another ceremony takes over
 * (the library aborts this one), or 15 s before `options.timeout` (the server's challenge lapses then): null, to be
 * asked again with fresh options.
 * @throws PasskeyCancelled (another ceremony took over, or the browser refused)
 */
export async function getPasskeyByAutofill(
  options: Parameters<typeof getPasskey>[0],
): Promise<AuthenticationResponseJSON | null> {
  const lib = await import('@simplewebauthn/browser');
  let lapsed = false;
  const lapse = setTimeout(
    () => {
      lapsed = true;
      lib.WebAuthnAbortService.cancelCeremony();
    },
    (options.timeout ?? 120_000) - 15_000,
  );
  try {
    return await lib.startAuthentication({
      optionsJSON: { ...options, allowCredentials: descriptors(options.allowCredentials) },
      useBrowserAutofill: true,
    });
  } catch {
    if (lapsed) return null;
    throw new PasskeyCancelled();
  } finally {
    clearTimeout(lapse);
  }
}

/**
 * Asks the browser to make a passkey for `options` (from `/v1/auth/passkeys/register/options`).
 * @throws PasskeyCancelled
 */
export function createPasskey(
  options: Omit<PublicKeyCredentialCreationOptionsJSON, 'excludeCredentials' | 'pubKeyCredParams'> & {
    excludeCredentials?: Descriptor[];
    pubKeyCredParams: { alg: number; type: string }[];
  },
): Promise<RegistrationResponseJSON> {
  const optionsJSON = {
    ...options,
    excludeCredentials: descriptors(options.excludeCredentials),
    pubKeyCredParams: options.pubKeyCredParams.map((p) => ({ alg: p.alg, type: 'public-key' as const })),
  };
  return ceremony((lib) => lib.startRegistration({ optionsJSON }));
}
