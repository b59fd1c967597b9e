/**
 * Unique-key violations as values, for repositories only (services get typed results, never raw
 * driver errors). Drizzle wraps the driver's error (pg or PGlite) in `cause`, so the whole chain is read.
 */

/** PostgreSQL SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = '23505';

/**
 * The violated constraint's name (the driver's message when it did not name it) when `err` or an error in its
 * `cause` chain is a unique violation; undefined otherwise.
 */
export function uniqueViolation(err: unknown): { constraint: string } | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, constraint, message, cause } = e as {
      code?: unknown;
      constraint?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (code === UNIQUE_VIOLATION)
      return {
        constraint:
          typeof constraint === 'string' && constraint ? constraint : typeof message === 'string' ? message : '',
      };
    e = cause;
  }
  return undefined;
}

/** SQLSTATEs of a write PostgreSQL refused because of another transaction: deadlock, serialization failure. */
const CONCURRENCY_FAILURES = new Set(['40P01', '40001']);

/**
 * The SQLSTATE when `err` (or an error in its `cause` chain) is a deadlock or serialization failure: two
 * concurrent writes of the same rows, one of them rolled back. The request answers 409 `api.conflict` as a
 * unique violation does (nothing was written; the client may retry); undefined for any other error.
 */
export function concurrencyFailure(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && CONCURRENCY_FAILURES.has(code)) return code;
    e = cause;
  }
  return undefined;
}

/**
 * SQLSTATEs of text PostgreSQL cannot store: 22021 (character_not_in_repertoire, "invalid byte sequence for encoding
 * UTF8: 0x00", a NUL in `text`) and 22P05 (untranslatable_character, `\u0000` in `jsonb`).
 */
const INVALID_TEXT = new Set(['22021', '22P05']);

/**
 * The SQLSTATE when `err` (or an error in its `cause` chain) is text the database refused to store (a NUL character):
 * the client's input, answered 400 `api.invalid_request_body` by the error handler (issue 39, item 10), never a 500.
 * The request guard (lib/nul-guard.ts) refuses NULs first; this is the last line behind it. Undefined otherwise.
 */
export function invalidText(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, cause } = e as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && INVALID_TEXT.has(code)) return code;
    e = cause;
  }
  return undefined;
}

/** The result of a write that a unique key may refuse. */
export type UniqueWrite<T> = { ok: true; value: T } | { ok: false; reason: 'duplicate'; constraint: string };
