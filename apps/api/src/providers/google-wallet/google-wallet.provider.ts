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

/**
 * The real API. An access token (1 h) is fetched with a signed assertion and kept until 5 min before its end.
 * @throws Error naming the call and the status when Google answers other than 2xx (404 on insert-or-update
 *   means "not there yet" and falls through to insert).
 */
export function createGoogleWalletApi(key: ServiceAccountKey, fetchImpl: typeof fetch = fetch): GoogleWalletApi {
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
    const r = await fetchImpl(TOKEN_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
    });
    if (!r.ok) throw new Error(`google wallet: token ${r.status}`);
    const body = (await r.json()) as { access_token: string; expires_in: number };
    token = { value: body.access_token, until: Date.now() + (body.expires_in - 300) * 1000 };
    return token.value;
  }
  async function call(method: string, path: string, body: unknown): Promise<number> {
    const r = await fetchImpl(`${API}/${path}`, {
      method,
      headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await r.body?.cancel();
    if (!r.ok && r.status !== 404) throw new Error(`google wallet: ${method} ${path.split('/')[0]} ${r.status}`);
    return r.status;
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
