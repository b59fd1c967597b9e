/**
 * When the offer of a passkey after a sign-in is due (issue 47, decision 049: "once, after an e-mail-code sign-in;
 * not asked again on that device for 30 days"). Kept on this device (`storage` key `passkeyOffer`, JSON
 * `{ sid, until }`): the session it was last offered in (the access token's `sid`: a session is opened by a sign-in,
 * so each sign-in is offered once) and until when "Not now" holds (epoch ms). Cheap checks only: whether the account
 * has a passkey is the offer's own question (components/passkey-offer.tsx), asked once this says it is due.
 */
import { embedMode } from '../../lib/host-bridge';
import { storage } from '../../lib/storage';
import { passkeysSupported } from '../../lib/webauthn';

/** How long "Not now" holds on this device, in milliseconds (30 days). */
export const NOT_NOW_MS = 30 * 24 * 60 * 60 * 1000;

interface OfferState {
  sid: string | null;
  until: number;
}

/** The session id (`sid`) of the stored access token, read without verifying it (the server does); null if none. */
function sessionId(): string | null {
  try {
    const payload = storage.get('accessToken')?.split('.')[1] ?? '';
    const { sid } = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sid?: unknown };
    return typeof sid === 'string' || typeof sid === 'number' ? String(sid) : null;
  } catch {
    return null;
  }
}

function read(): OfferState {
  try {
    const { sid, until } = JSON.parse(storage.get('passkeyOffer') ?? '{}') as Partial<OfferState>;
    return { sid: typeof sid === 'string' ? sid : null, until: typeof until === 'number' ? until : 0 };
  } catch {
    return { sid: null, until: 0 };
  }
}

/** A domain name: a passkey's relying party cannot be an IP address (WebAuthn), so the offer would only fail there. */
const onDomain = () => !/^[\d.]+$|^\[/.test(window.location.hostname);

/**
 * Whether to offer a passkey now (before asking whether the account has one): the standalone panel (embedded, what a
 * cross-site frame allows is not known yet: decision 049), a browser with passkeys, on a domain name, a session not
 * offered yet, "Not now" not holding at `now` (epoch ms).
 */
export function passkeyOfferDue(now = Date.now()): boolean {
  if (embedMode !== 'standalone' || !passkeysSupported() || !onDomain()) return false;
  const sid = sessionId();
  const state = read();
  return sid !== null && sid !== state.sid && now >= state.until;
}

/** Notes that this session was offered a passkey: not again in it. */
export function markPasskeyOffered(): void {
  storage.set('passkeyOffer', JSON.stringify({ ...read(), sid: sessionId() }));
}

/** "Not now": not offered again on this device for `NOT_NOW_MS` after `now` (epoch ms). */
export function dismissPasskeyOffer(now = Date.now()): void {
  storage.set('passkeyOffer', JSON.stringify({ sid: sessionId(), until: now + NOT_NOW_MS }));
}
