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
import { AppError } from './app-error.js';

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
    /** Set by `requireAuth`: the signed-in user and sign-in session. */
    auth: { userId: number; sessionId: string };
  }
}

/** Reads `Authorization: Bearer <token>`; returns the token or null. */
export function bearerOf(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h || !h.startsWith('Bearer ')) return null;
  return h.slice(7).trim() || null;
}

/** Builds the pre-handler that requires a valid access token (401 `api.unauthorized` otherwise). */
export function requireAuthWith(
  authenticate: (bearer: string) => Promise<{ userId: number; sessionId: string } | null>,
) {
  return async function requireAuth(req: FastifyRequest): Promise<void> {
    const token = bearerOf(req);
    const claims = token ? await authenticate(token) : null;
    if (!claims) throw new AppError('api.unauthorized');
    req.auth = claims;
  };
}

/** Global error handler: message keys only, never internals for a 5xx. */
export function errorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof AppError) {
    reply.headers(err.headers);
    return reply.code(err.status).send({ message: err.code, ...err.extra });
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
    return reply.code(400).send({ message: 'api.invalid_request_body', fields });
  }
  const e = err as { statusCode?: number; code?: string };
  if (e.statusCode === 429) return reply.code(429).send({ message: 'api.too_many_requests' });
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    // Fastify's own client errors: bad JSON, wrong content type, body too large.
    const message =
      e.statusCode === 404 ? 'api.not_found' : e.statusCode === 401 ? 'api.unauthorized' : 'api.invalid_request_body';
    return reply
      .code(
        e.statusCode === 404 || e.statusCode === 401 || e.statusCode === 413 || e.statusCode === 415
          ? e.statusCode
          : 400,
      )
      .send({ message });
  }
  req.log.error({ err }, 'unhandled error');
  return reply.code(500).send({ message: 'api.internal_error' });
}

/** A route pre-handler such as `requireAuth`. */
export type PreHandler = (req: FastifyRequest) => Promise<void>;
