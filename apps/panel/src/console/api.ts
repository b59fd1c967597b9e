/**
 * The console's calls to /v1 (decision 024): the holders' e-mail code sign-in (`/v1/auth/*`, whose refresh cookie
 * keeps the console signed in across reloads), the exchange for a console token of one organisation
 * (`/v1/console/session`), and the organiser API (`/v1/org/*`) with that token. An error answer becomes an
 * `ApiError` carrying the body (`message` key, `detail`, `fields`, an import's `errors`).
 */
import type { Membership } from '@tp/contract';

/** An error answer of the API: `status` and its JSON body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: {
      message: string;
      detail?: string;
      fields?: Record<string, string>;
      errors?: { row: number; message: string; field?: string; detail?: string; value?: string }[];
    },
  ) {
    super(body.message);
  }
}

const ORG_KEY = 'console.organisation';
let holderToken: string | null = null;
let consoleToken: string | null = null;

async function send<T>(path: string, init: RequestInit & { token?: string | null } = {}): Promise<T> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (typeof init.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const res = await fetch(`/v1${path}`, { ...init, headers, credentials: 'same-origin' });
  if (res.status === 204) return undefined as T;
  const type = res.headers.get('content-type') ?? '';
  const body: unknown = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) {
    const err = typeof body === 'object' && body ? (body as ApiError['body']) : { message: 'api.internal_error' };
    throw new ApiError(res.status, err);
  }
  return body as T;
}

/** POST /auth/signInOrRegisterAndSignIn: e-mails a code; returns the sign-in session id. */
export async function requestCode(email: string, locale: string): Promise<string> {
  const r = await send<{ sessionId: string }>('/auth/signInOrRegisterAndSignIn', {
    method: 'POST',
    body: JSON.stringify({ email, locale }),
  });
  return r.sessionId;
}

/** POST /auth/verifyLoginRequest: signs in with the code (the refresh cookie is set for reloads). */
export async function verifyCode(email: string, session: string, otp: string): Promise<void> {
  const r = await send<{ accessToken: string }>('/auth/verifyLoginRequest', {
    method: 'POST',
    body: JSON.stringify({ email, session, otp }),
  });
  holderToken = r.accessToken;
}

/** Signs in again from the refresh cookie (a reload); false when there is no live sign-in. */
export async function resume(): Promise<boolean> {
  try {
    const r = await send<{ accessToken: string }>('/auth/refresh', { method: 'POST', body: '{}' });
    holderToken = r.accessToken;
    return true;
  } catch {
    return false;
  }
}

/** GET /console/organisations: the organisations the signed-in account is a member of. */
export const memberships = () => send<Membership[]>('/console/organisations', { token: holderToken });

/** POST /console/session: a console token for the organisation; remembered for this tab's reloads. */
export async function openOrganisation(organisationId: number): Promise<Membership> {
  const r = await send<{ accessToken: string; membership: Membership }>('/console/session', {
    method: 'POST',
    token: holderToken,
    body: JSON.stringify({ organisationId }),
  });
  consoleToken = r.accessToken;
  sessionStorage.setItem(ORG_KEY, String(organisationId));
  return r.membership;
}

/** The organisation this tab worked on before a reload, if any. */
export const rememberedOrganisation = (): number | null => Number(sessionStorage.getItem(ORG_KEY)) || null;

/** Signs out (the holder session and with it the console token end on the server). */
export async function signOut(): Promise<void> {
  sessionStorage.removeItem(ORG_KEY);
  await send('/auth/logout', { token: holderToken }).catch(() => undefined);
  holderToken = consoleToken = null;
}

/**
 * A call of the organiser API with the console token. A 401 (the token's lifetime ended) renews the holder token
 * from the refresh cookie and the console token once, then tries again.
 */
export async function org<T>(path: string, init: RequestInit = {}): Promise<T> {
  try {
    return await send<T>(`/org${path}`, { ...init, token: consoleToken });
  } catch (err) {
    const organisationId = rememberedOrganisation();
    if (!(err instanceof ApiError && err.status === 401) || !organisationId || !(await resume())) throw err;
    await openOrganisation(organisationId);
    return send<T>(`/org${path}`, { ...init, token: consoleToken });
  }
}

/** `?a=1&b=2` of the defined values. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}
