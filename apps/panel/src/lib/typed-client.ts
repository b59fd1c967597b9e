/**
 * The one typed HTTP client of the panel, the console and the door scanner (issue 43): every call names a path and
 * method of the generated API schema (`apps/api/client/schema.d.ts`, written by `npm run api:client` from the
 * routes' contract schemas), and its parameters, body and answer are typed from it with openapi-fetch's types
 * (`MaybeOptionalInit`, `FetchResponse`). So a route whose answer changes in a way a caller does not expect fails
 * the typecheck (proved by `typed-client.type-test.ts`, run by `npm run typecheck`).
 *
 * The runtime is this file's own few lines, not openapi-fetch's (2.3 kB brotlied, over the boot chunk's and the
 * login screen's byte budgets, `.size-limit.json`): it fills `{name}` path parameters (URL-encoded), writes the
 * query (`form`, exploded, as openapi-fetch's default), sends a JSON body, or a `FormData` or `Blob` as it is (a multipart or CSV route's), and reads the answer as
 * JSON, text or a blob (`parseAs`). Each surface makes its own client with {@link createTypedClient} and adds its
 * credentials (`prepare`) and its way of renewing them after a 401 (`renew`).
 *
 * Every failure is the one error type {@link ApiError}: the `{ message }` body's message key, the HTTP status
 * (0: no answer, a timeout or an unreadable body) and the body (`fields` of a validation failure, …).
 *
 * A call the API shed (503 `api.busy` with `Retry-After`, decision 039) is sent once more after the advised wait
 * ({@link busyWaitMs}) when the surface asks for it (`retryBusy`), so a person sees "very busy" only when the second
 * try is shed too (issue 44). A call refused for want of a fresh proof of presence (403 `api.auth.step_up_required`,
 * issue 47) is sent once more after the surface's `stepUp` got one.
 */
import type { FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import type { paths } from '../../../api/client/schema';

export type { paths };

/** An API failure: `message` is a translatable key; `status` 0 for network/timeout/parse failures. */
export class ApiError extends Error {
  // Declared, not class fields: an es2020 build would down-level fields with a helper on the first screen.
  declare readonly status: number;
  /** The error answer's JSON body (`message`, and per key: `fields`, `detail`, an import's `errors`, …). */
  declare readonly body: Record<string, unknown>;
  constructor(message: string, status: number, body: Record<string, unknown> = {}) {
    super(message);
    Object.assign(this, { status, body });
  }
  /** A validation failure's message key per field (`{ fields }` of a 400), or none. */
  get fields(): Record<string, string> {
    const f = this.body.fields;
    return f && typeof f === 'object' ? (f as Record<string, string>) : {};
  }
}

/** What a call may add to the schema's parameters and body. */
export interface CallExtras {
  /** Extra request headers (lower-case names). */
  headers?: Record<string, string>;
  /** How to read a successful answer (default JSON; 204: `undefined`). */
  parseAs?: 'json' | 'text' | 'blob';
  /** False: a shed answer (503 `api.busy`) fails at once even when the client retries shed calls. */
  retryBusy?: false;
}

type Media = `${string}/${string}`;
/**
 * An operation whose body is not JSON (`multipart/form-data`, `text/csv`) takes a `FormData` or a `Blob` (a `File`)
 * as its body, sent as it is (with the call's `content-type` header, if any).
 */
type RawBody<Op> = Op extends { requestBody: { content: infer C } }
  ? 'application/json' extends keyof C
    ? false
    : true
  : false;
type Init<P, M extends keyof P> = (RawBody<P[M]> extends true
  ? Omit<MaybeOptionalInit<P, M>, 'body'> & { body: FormData | Blob }
  : MaybeOptionalInit<P, M>) &
  CallExtras;
/** The success answer of an operation, read as `I.parseAs` says; `void` when the route answers no body. */
export type Answer<Op extends Record<string | number, unknown>, I> =
  NonNullable<FetchResponse<Op, I, Media>['data']> extends infer D ? ([D] extends [never] ? void : D) : never;

/** One method of the client: a path of the schema that has `M`, its init (required when it has required keys). */
export type CallMethod<M extends HttpMethod> = <
  P extends PathsWithMethod<paths, M>,
  I extends Init<paths[P], M & keyof paths[P]>,
>(
  path: P,
  ...init: RequiredKeysOf<I> extends never ? [I?] : [I]
) => Promise<Answer<paths[P][M] & Record<string | number, unknown>, I>>;

/** A typed client of `/v1` (the paths carry the `/v1` prefix, as in the API document). */
export interface TypedClient {
  GET: CallMethod<'get'>;
  POST: CallMethod<'post'>;
  PUT: CallMethod<'put'>;
  PATCH: CallMethod<'patch'>;
  DELETE: CallMethod<'delete'>;
}

/** How one surface talks to the API. */
export interface ClientConfig {
  /** Adds this surface's headers (credentials, organisation, language) to a request's, before each try. */
  prepare?: (headers: Record<string, string>) => void;
  /**
   * After a 401 to a request sent with `sent` headers: renew the credentials and resolve true to try once more (the
   * panel's refresh, the console's new console token); false or a thrown ApiError ends the call.
   */
  renew?: (sent: Record<string, string>) => Promise<boolean>;
  /** The fetch to use (tests replace it); read at each call. */
  fetch: () => (url: string, init: RequestInit) => Promise<Response>;
  /** A call without an answer after this many milliseconds fails (status 0); default 20 s, 0: no limit. */
  timeoutMs?: number;
  /** The message key of a call that got no answer (default `request_failed`). */
  failedKey?: () => string;
  /** `RequestInit` fields of every call (`credentials`, `cache`). */
  init?: RequestInit;
  /**
   * True: a call answered 503 `api.busy` is sent once more after {@link busyWaitMs} (issue 44). Safe for every method,
   * a POST included: the API sheds in an `onRequest` hook (apps/api lib/load-shedding.ts, registered after only the
   * request id, NUL guard and access log, before the rate limits, authentication and every route), before the body is
   * read, a rate limit is counted or a handler runs, so a shed request did nothing. Any other 503 (a proxy's,
   * `api.service_unavailable`) is not retried.
   */
  retryBusy?: boolean;
  /**
   * After a 403 `api.auth.step_up_required` (issue 47: the route moves a ticket or money and the sign-in is older than
   * STEP_UP_MAX_AGE_SECONDS): ask the person to prove presence for the answer's `action`; true sends the call once
   * more, false ends it with that 403.
   */
  stepUp?: (action: string) => Promise<boolean>;
}

/** The longest wait before a shed call's second try, seconds, jitter included. */
export const BUSY_WAIT_MAX_SECONDS = 10;

/**
 * How long to wait before trying a shed call again, milliseconds: the answer's `Retry-After` seconds (1 when absent or
 * not a number of seconds), at most two thirds of {@link BUSY_WAIT_MAX_SECONDS}, plus up to half of it again at
 * random (`random` in [0, 1)), so the clients shed together do not all come back in the same instant.
 */
export const busyWaitMs = (retryAfter: string | null, random = Math.random()): number =>
  Math.round(Math.min(Number(retryAfter) || 1, (BUSY_WAIT_MAX_SECONDS * 2) / 3) * (1 + random / 2) * 1000);

type Scalar = string | number | boolean;
interface RuntimeInit extends CallExtras {
  params?: { path?: Record<string, Scalar>; query?: Record<string, Scalar | Scalar[] | null | undefined> };
  body?: unknown;
}

/** `path` with its `{name}` parameters filled in and the query (defined values only, arrays repeated) appended. */
function callUrl(path: string, params: RuntimeInit['params'] = {}): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(String(params.path?.[k])));
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params.query ?? {}))
    for (const one of Array.isArray(v) ? v : [v])
      if (one !== undefined && one !== null && one !== '') q.append(k, String(one));
  const s = q.toString();
  return s ? `${filled}?${s}` : filled;
}

/** A client for one surface; see {@link ClientConfig}. Throws {@link ApiError} on every failure. */
export function createTypedClient(config: ClientConfig): TypedClient {
  const send = async (method: string, url: string, init: RuntimeInit, headers: Record<string, string>) => {
    config.prepare?.(headers);
    let body: BodyInit | undefined;
    if (init.body instanceof FormData || init.body instanceof Blob) body = init.body;
    else if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    const ctrl = new AbortController();
    const ms = config.timeoutMs ?? 20_000;
    const timer = ms ? setTimeout(() => ctrl.abort(), ms) : undefined;
    try {
      return await config.fetch()(url, { ...config.init, method, headers, body, signal: ctrl.signal });
    } catch {
      throw new ApiError(config.failedKey?.() ?? 'request_failed', 0);
    } finally {
      clearTimeout(timer);
    }
  };
  const call =
    (method: string) =>
    async (path: string, init: RuntimeInit = {}): Promise<unknown> => {
      const url = callUrl(path, init.params);
      let renewed = false;
      let steppedUp = false;
      let waited = !config.retryBusy || init.retryBusy === false;
      for (;;) {
        const sent = { ...init.headers };
        const res = await send(method, url, init, sent);
        if (res.status === 401 && !renewed && config.renew) {
          renewed = true;
          if (await config.renew(sent)) continue;
        }
        if (!res.ok) {
          let body: Record<string, unknown> = {};
          try {
            body = (await res.json()) as Record<string, unknown>;
          } catch {
            /* not JSON */
          }
          const message = typeof body.message === 'string' ? body.message : 'request_failed';
          if (message === 'api.busy' && !waited) {
            waited = true;
            await new Promise((r) => setTimeout(r, busyWaitMs(res.headers.get('retry-after'))));
            continue;
          }
          // Once: a second refusal after a step-up fails as it is.
          if (message === 'api.auth.step_up_required' && !steppedUp && config.stepUp)
            if ((steppedUp = await config.stepUp(body.action as string))) continue;
          throw new ApiError(message, res.status, body);
        }
        if (res.status === 204) return undefined;
        try {
          return init.parseAs === 'text'
            ? await res.text()
            : init.parseAs === 'blob'
              ? await res.blob()
              : await res.json();
        } catch {
          throw new ApiError('request_failed', 0);
        }
      }
    };
  // The runtime reads any path; the types above hold each call to the schema (as openapi-fetch's createClient does).
  return {
    GET: call('GET'),
    POST: call('POST'),
    PUT: call('PUT'),
    PATCH: call('PATCH'),
    DELETE: call('DELETE'),
  } as unknown as TypedClient;
}
