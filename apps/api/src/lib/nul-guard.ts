/**
 * No NUL character gets past the door (issue 39, item 10). PostgreSQL refuses U+0000 in `text` (SQLSTATE 22021,
 * "invalid byte sequence for encoding UTF8: 0x00") and in `jsonb` (22P05, "unsupported Unicode escape sequence"), so a
 * NUL in any value that reaches a query was a 500. Rather than a refinement on each of the contract's strings (the
 * issue-14 way, `hasNoNul`, which the next field forgets), one `preValidation` hook on every route refuses a request
 * whose path parameters, query, parsed body (JSON, form-encoded, CSV text) or headers hold a NUL anywhere (object keys
 * included), with 400 `api.invalid_request_body` and `fields` naming where. It runs before the route's schema and
 * before any route's own `preValidation` (the door key's), so nothing of the request has been looked up yet.
 *
 * Other control characters (U+0001–U+001F, U+007F, U+2028/2029, a BOM) are legal in PostgreSQL text and stay the
 * business of each field's schema; lone surrogates never reach the database (the drivers encode them as U+FFFD).
 * Streamed bodies (multipart uploads, read by their handler) are not parsed here: their text fields are not stored.
 * The error handler's mapping of 22021/22P05 to 400 (lib/http.ts) is the last line behind this one.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';
import type { App } from './http.js';

const NUL = '\u0000';
/** Nesting followed into a body: deeper than any schema of ours (the body limit bounds the rest). */
const MAX_DEPTH = 32;

/**
 * The path (`a.b.0`, `_` for the value itself) of the first string or key holding a NUL in `value`, or null.
 * Buffers and streams are not parsed input and are skipped.
 */
export function nulPath(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path || '_' : null;
  if (!value || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  // Not a streamed body (the CSV import's request stream): it holds the socket and the server, whose graph is no
  // input, and walking it froze the instance.
  if (Buffer.isBuffer(value) || typeof (value as { pipe?: unknown }).pipe === 'function') return null;
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value as Record<string, unknown>);
  for (const [k, v] of entries) {
    const here = path ? `${path}.${String(k)}` : String(k);
    if (typeof k === 'string' && k.includes(NUL)) return here;
    const found = nulPath(v, here, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The first place of `req` holding a NUL: a header's name, else a parameter's, query field's or body field's path. */
function nulIn(req: FastifyRequest): string | null {
  for (const [name, v] of Object.entries(req.headers))
    if (typeof v === 'string' ? v.includes(NUL) : Array.isArray(v) && v.some((s) => s.includes(NUL)))
      return `header ${name}`;
  return nulPath(req.params) ?? nulPath(req.query) ?? nulPath(req.body);
}

/**
 * Registers the hook on `app` (every route, the not-found handler included); call before any route.
 * @throws AppError `api.invalid_request_body` (400, `fields: { <where>: ['contains a NUL character'] }`)
 */
export function registerNulGuard(app: App): void {
  app.addHook('preValidation', (req, _reply, done) => {
    const where = nulIn(req);
    done(
      where
        ? new AppError('api.invalid_request_body', { fields: { [where]: ['contains a NUL character'] } })
        : undefined,
    );
  });
}
