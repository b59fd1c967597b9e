/**
 * The Google Wallet REST API (walletobjects v1) behind one interface (issue 22, decision 029): the real client,
 * authenticated as the issuer's service account (OAuth 2 JWT bearer grant, RS256 with `jose`), and a local fake
 * that keeps classes and objects in memory for wallet test mode and tests. Both insert-or-update by id.
 */
import { importPKCS8, SignJWT } from 'jose';

/** An event-ticket class (one per event) or object (one per held ticket), as the REST API takes it. */
export type WalletResource = { id: string } & Record<string, unknown>;

export interface GoogleWalletApi {
  kind: 'google' | 'fake';
  /** Inserts the event-ticket class, or updates it when it exists. */
  upsertClass(resource: WalletResource): Promise<void>;
  /** Inserts the event-ticket object, or updates it when it exists. */
  upsertObject(resource: WalletResource): Promise<void>;
  /** `PATCH`es fields of an object (e.g. `{ state: 'INACTIVE' }`). */
  patchObject(id: string, fields: Record<string, unknown>): Promise<void>;
}

/** A service account's JSON key: the fields used. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
}

const API = 'https://walletobjects.googleapis.com/walletobjects/v1';
const TOKEN_URL = 'https://oauth2.googleapis.com/token';
const SCOPE = 'https://www.googleapis.com/auth/wallet_object.issuer';

/** Options of the real API's client. */
export interface GoogleWalletApiOptions {
  /**
   * Bound on one call (token or API), connection and answer's body included, milliseconds (GOOGLE_WALLET_TIMEOUT_SECONDS;
   * default 10,000): past it the call rejects with `google wallet: <call> timed out after N ms`.
   */
  timeoutMs?: number;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
  /** Base of the REST API (default Google's walletobjects v1; tests point it at a local server). */
  apiUrl?: string;
  /** Where access tokens are asked for (default Google's OAuth 2 token endpoint, which stays the assertion's audience). */
  tokenUrl?: string;
}

/**
 * The real API. An access token (1 h) is fetched with a signed assertion and kept until 5 min before its end.
 * @throws Error naming the call and the status when Google answers other than 2xx (404 on insert-or-update
 *   means "not there yet" and falls through to insert), or naming the call when it timed out.
 */
export function createGoogleWalletApi(key: ServiceAccountKey, opts: GoogleWalletApiOptions = {}): GoogleWalletApi {
  const fetchImpl = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const api = opts.apiUrl ?? API;
  const tokenUrl = opts.tokenUrl ?? TOKEN_URL;
  /** `fn` with a fresh timeout signal; an abort by it becomes an error naming `what`. */
  async function bounded<T>(what: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await fn(AbortSignal.timeout(timeoutMs));
    } catch (err) {
      if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
        throw new Error(`google wallet: ${what} timed out after ${timeoutMs} ms`, { cause: err });
      throw err;
    }
  }
  let token: { value: string; until: number } | null = null;
  async function accessToken(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuer(key.client_email)
      .setAudience(TOKEN_URL)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(await importPKCS8(key.private_key, 'RS256'));
    const body = await bounded('token', async (signal) => {
      const r = await fetchImpl(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
        signal,
      });
      if (!r.ok) {
        await r.body?.cancel();
        throw new Error(`google wallet: token ${r.status}`);
      }
      return (await r.json()) as { access_token: string; expires_in: number };
    });
    token = { value: body.access_token, until: Date.now() + (body.expires_in - 300) * 1000 };
    return token.value;
  }
  async function call(method: string, path: string, body: unknown): Promise<number> {
    const bearer = await accessToken();
    const what = `${method} ${path.split('/')[0]}`;
    const status = await bounded(what, async (signal) => {
      const r = await fetchImpl(`${api}/${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
      await r.body?.cancel();
      return r.status;
    });
    if (!(status >= 200 && status < 300) && status !== 404) throw new Error(`google wallet: ${what} ${status}`);
    return status;
  }
  const upsert = (collection: string) => async (resource: WalletResource) => {
    const status = await call('PUT', `${collection}/${encodeURIComponent(resource.id)}`, resource);
    if (status === 404) await call('POST', collection, resource);
  };
  return {
    kind: 'google',
    upsertClass: upsert('eventTicketClass'),
    upsertObject: upsert('eventTicketObject'),
    async patchObject(id, fields) {
      await call('PATCH', `eventTicketObject/${encodeURIComponent(id)}`, fields);
    },
  };
}

/** The local fake (wallet test mode): classes and objects by id, readable for checks. */
export function createFakeGoogleWalletApi(): GoogleWalletApi & {
  classes: Map<string, WalletResource>;
  objects: Map<string, WalletResource>;
} {
  const classes = new Map<string, WalletResource>();
  const objects = new Map<string, WalletResource>();
  return {
    kind: 'fake',
    classes,
    objects,
    upsertClass: (r) => Promise.resolve(void classes.set(r.id, structuredClone(r))),
    upsertObject: (r) => Promise.resolve(void objects.set(r.id, structuredClone(r))),
    patchObject(id, fields) {
      const found = objects.get(id);
      if (!found) return Promise.reject(new Error(`google wallet fake: no object ${id}`));
      objects.set(id, { ...found, ...structuredClone(fields) });
      return Promise.resolve();
    },
  };
}
