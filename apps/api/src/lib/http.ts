/**
 * HTTP plumbing shared by every module: the typed Fastify instance, the error handler that turns
 * AppError and validation failures into `{ message: key }`, and the bearer-auth pre-handler.
 */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import { hasZodFastifySchemaValidationErrors, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ORGANISATION_HEADER, ORGANISER_DETAILS, type MessageKey, type StepUpAction } from '@tp/contract';
import { AppError } from './app-error.js';
import { clientAborted, logAbort, routeOf } from './request-id.js';
import { databaseUnavailableReason } from '../db/unavailable.js';
import { concurrencyFailure, invalidText, uniqueViolation } from '../db/unique-violation.js';
import type { users } from '../db/schema.js';

/** An account's row (the `users` table), as `requireAuth` reads it with the session. */
type UserRow = typeof users.$inferSelect;

/** Seconds a client is told to wait (`Retry-After`) while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The Fastify instance with the zod type provider. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by `requireAuth`: the signed-in user, the sign-in session and the organisation the request's
     * `X-Organisation` header names (null without the header). Pass it as the `Holder` (db/predicates.ts) of
     * anything that lists or fetches the holder's tickets.
     */
    auth: { userId: number; sessionId: string; organisationId: number | null };
    /**
     * The proof of presence a step-up route checks (issue 47, decision 048): the `stepped_up_at` of the sign-in session
     * behind the request's credential (null: none yet), set by `requireAuth` for a holder and by the organiser
     * scope's `requireOrganisation` for a member's console token (the holder session it was opened from); or
     * `'machine'` for an organisation API key, an integration with no person to ask, which no step-up route refuses.
     * Unset (a route whose pre-handlers set none) counts as no proof.
     */
    presence: Date | null | 'machine';
    /**
     * Set by `requireAuth`: the signed-in account's row, read with its session in the same statement (decision
     * 051); a route that answers with the account uses it instead of reading it again.
     */
    account: UserRow;
  }
  interface FastifyContextConfig {
    /**
     * The route moves a ticket or money (issue 47): the action it is, and it wants a proof of presence from the last
     * STEP_UP_MAX_AGE_SECONDS (`requireStepUpWith`, added to its pre-handlers by app/plugins.ts).
     */
    stepUp?: StepUpAction;
  }
}

/** Reads `Authorization: Bearer <token>`; returns the token or null. */
export function bearerOf(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h || !h.startsWith('Bearer ')) return null;
  return h.slice(7).trim() || null;
}

/**
 * Builds the pre-handler that requires a valid access token (401 `api.unauthorized` otherwise) and resolves
 * the `X-Organisation` header through `organisationId` (which throws 404 `api.organisation.not_found` for an
 * unknown slug; the header is read only once the token is valid).
 */
export function requireAuthWith(
  authenticate: (
    bearer: string,
  ) => Promise<{ userId: number; sessionId: string; steppedUpAt?: Date | null; user: UserRow } | null>,
  organisationId: (slug: string) => Promise<number>,
) {
  return async function requireAuth(req: FastifyRequest): Promise<void> {
    const token = bearerOf(req);
    const claims = token ? await authenticate(token) : null;
    if (!claims) throw new AppError('api.unauthorized');
    const slug = req.headers[ORGANISATION_HEADER.toLowerCase()];
    req.auth = {
      userId: claims.userId,
      sessionId: claims.sessionId,
      organisationId: typeof slug === 'string' ? await organisationId(slug) : null,
    };
    req.presence = claims.steppedUpAt ?? null;
    req.account = claims.user;
  };
}

/**
 * Builds the pre-handler of the routes that move a ticket or money or grant lasting access (`config.stepUp`, issue
 * 47), run after `requireAuth` or `requireOrganisation`: the session's last proof of presence (`req.presence`: the
 * sign-in, or a step-up code or passkey verified since) must be at most `maxAgeSeconds` old at `now()`; an
 * organisation API key (`'machine'`) passes.
 * @throws AppError 403 `api.auth.step_up_required` with the route's `action` and `maxAgeSeconds` (fields of the
 *   contract's `auth.errorBody`): the panel asks for a step-up and sends the request again.
 */
export function requireStepUpWith(maxAgeSeconds: number, now: () => Date) {
  return function requireStepUp(req: FastifyRequest): Promise<void> {
    const action = req.routeOptions.config.stepUp;
    const at = req.presence as Date | null | 'machine' | undefined;
    if (!action || at === 'machine') return Promise.resolve();
    if (!at || now().getTime() - at.getTime() > maxAgeSeconds * 1000)
      return Promise.reject(new AppError('api.auth.step_up_required', { action, maxAgeSeconds }));
    return Promise.resolve();
  };
}

/**
 * Logs a failure of the server (status >= 500) with its cause chain. pino's `err` serializer appends the
 * message and stack of every `Error` cause; a cause that is not an `Error` is logged as `cause`.
 */
function logServerError(req: FastifyRequest, err: unknown): void {
  const cause = err instanceof Error ? err.cause : undefined;
  req.log.error(
    {
      err,
      method: req.method,
      route: routeOf(req),
      ...(cause !== undefined && !(cause instanceof Error) ? { cause } : {}),
    },
    'request failed',
  );
}

/**
 * Global error handler: the body is `{ message: key }` (plus the fields an AppError names); a 5xx is logged with
 * its cause and its body is only the key (`api.internal_error` for anything unknown): no stack, no SQL.
 * - AppError: its status and key.
 * - zod validation of the schema: 400 `api.invalid_request_body` with `fields`.
 * - Fastify's own client errors: 429 `api.too_many_requests`, 404 `api.not_found`, 401 `api.unauthorized`,
 *   413/415/other 4xx `api.invalid_request_body`.
 * - the database unreachable (PostgreSQL restarting, failing over): 503 `api.service_unavailable` with
 *   `Retry-After`, never a 500.
 * - load shedding (lib/load-shedding.ts): 503 `api.busy` with `Retry-After`, not logged (counted in the metrics).
 * - a unique violation no repository turned into a rule (two requests creating the same organiser id at
 *   once: issue 19, break 5): 409 `api.conflict`, the client may retry; logged as a warning with the
 *   constraint's name only (never the driver's detail, which holds the values).
 * - text the database cannot store (a NUL: SQLSTATE 22021, 22P05) that lib/nul-guard.ts did not catch: 400
 *   `api.invalid_request_body`, logged as a warning with the SQLSTATE only (issue 39, item 10).
 * - anything else: 500 `api.internal_error`.
 */
/**
 * The organiser API's `detail` (issue 21): on `/v1/org/` and `/v1/admin/` every error body also carries an English
 * sentence naming the field, id or column (`ORGANISER_DETAILS`, or the invalid fields of a 400).
 */
function withDetail(req: FastifyRequest, reply: FastifyReply) {
  const send = reply.send.bind(reply);
  if (!/^\/v1\/(org|admin)\//.test(req.url)) return send;
  return (body: { message: string; detail?: string; fields?: Record<string, string[]> }) => {
    if (body.detail) return send(body);
    const fields = body.fields && Object.entries(body.fields);
    const detail = fields?.length
      ? `Invalid ${fields.map(([k, v]) => `${k === '_' ? 'body' : k} (${v.join('; ')})`).join(', ')}.`
      : body.message === 'api.invalid_request_body'
        ? // Fastify's own refusals (unreadable JSON, a body too large, a type without a parser): no `fields` to see.
          'The body could not be read: it must be well-formed, within the size this operation takes and sent with its Content-Type.'
        : (ORGANISER_DETAILS[body.message as MessageKey] ?? 'See the message key in the API document.');
    return send({ ...body, detail });
  };
}

export function errorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  // The client went away (socket closed, body cut short): nobody reads the answer and nothing failed here; one
  // `info` line with the route, not an error (issue 41, point 8).
  if (!(err instanceof AppError) && clientAborted(req, err)) {
    logAbort(req, (err as { code?: unknown }).code);
    reply.code(400);
    return reply.send({ message: 'api.invalid_request_body' });
  }
  // A refusal while the body is partly read (too many rows: its stream was being consumed) closes the connection:
  // Node no longer discards the rest, and a client still sending it would keep a connection whose next request is
  // never answered (issue 41). A body nobody started reading (a refused key, an oversized avatar on its header)
  // Node reads to its end and drops after the answer, so the client, still sending, gets the answer (closing would
  // fail its upload with EPIPE) and the connection stays usable.
  if (!req.raw.complete && req.raw.readableDidRead) reply.header('connection', 'close');
  const send = withDetail(req, reply);
  if (err instanceof AppError) {
    // A shed request (api.busy, decision 039) is counted in the metrics, not logged: a line per refusal would add
    // to the load it sheds.
    if (err.status >= 500 && err.code !== 'api.busy') logServerError(req, err);
    reply.headers(err.headers);
    reply.code(err.status);
    return send({ message: err.code, ...err.extra });
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const fields: Record<string, string[]> = {};
    for (const v of err.validation) {
      const path =
        (v.instancePath || '/').replace(/^\//, '').replace(/\//g, '.') ||
        (v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ||
        '_';
      (fields[path] ??= []).push(v.message ?? 'invalid');
    }
    reply.code(400);
    return send({ message: 'api.invalid_request_body', fields });
  }
  const e = err as { statusCode?: number; code?: string };
  if (e.statusCode === 429) {
    reply.code(429);
    return send({ message: 'api.too_many_requests' });
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    // Fastify's own client errors: bad JSON, wrong content type, body too large.
    const message =
      e.statusCode === 404 ? 'api.not_found' : e.statusCode === 401 ? 'api.unauthorized' : 'api.invalid_request_body';
    reply.code(
      e.statusCode === 404 || e.statusCode === 401 || e.statusCode === 413 || e.statusCode === 415 ? e.statusCode : 400,
    );
    return send({ message });
  }
  const duplicate = uniqueViolation(err);
  if (duplicate) {
    req.log.warn({ constraint: constraintName(duplicate.constraint) }, 'concurrent write refused by a unique key');
    reply.code(409);
    return send({ message: 'api.conflict' });
  }
  const concurrency = concurrencyFailure(err);
  if (concurrency) {
    req.log.warn({ sqlstate: concurrency }, 'concurrent write rolled back by the database');
    reply.code(409);
    return send({ message: 'api.conflict' });
  }
  const badText = invalidText(err);
  if (badText) {
    req.log.warn({ sqlstate: badText }, 'text the database cannot store (a NUL character) refused');
    reply.code(400);
    return send({ message: 'api.invalid_request_body' });
  }
  const unavailable = databaseUnavailableReason(err);
  if (unavailable) {
    // PostgreSQL restarting or failing over: a generic 503 the client may retry; the pool heals by itself.
    req.log.warn({ reason: unavailable }, 'database unavailable');
    return reply
      .code(503)
      .header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
      .send({ message: 'api.service_unavailable' });
  }
  logServerError(req, err);
  return reply.code(500).send({ message: 'api.internal_error' });
}

/** A constraint's name; a driver message (which may quote values) is not logged. */
function constraintName(c: string): string {
  return /^[a-z0-9_]+$/i.test(c) ? c : 'unnamed';
}

/** A route pre-handler such as `requireAuth`. */
export type PreHandler = (req: FastifyRequest) => Promise<void>;
