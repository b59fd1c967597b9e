/**
 * Logs carry ids, never e-mails, phone numbers or names (issue 19, break 5). A failed query's error from
 * Drizzle quotes its bound parameters (`Failed query: … params: alice@example.com,…`) and PostgreSQL's
 * `detail` quotes the conflicting values (`Key (email)=(…) already exists`), so errors are serialized here
 * without them, and pino's redaction censors personal fields wherever an object logged names them.
 */

/** Fields that hold personal data, wherever they appear in a logged object (pino `redact` paths). */
const PERSONAL_FIELDS = ['email', 'holderEmail', 'phoneNumber', 'givenName', 'familyName', 'nickname', 'name'];

/** Error properties that quote row values (pg/PGlite: detail, where; Drizzle: params). */
const VALUE_PROPERTIES = new Set(['detail', 'where', 'params', 'parameters', 'query']);

const EMAIL = /[^\s@'"(),;=<>]+@[^\s@'"(),;=<>]+\.[a-z]{2,}/gi;
const PHONE = /\+\d[\d\s-]{6,}\d/g;

/** A message or stack without bound parameters, e-mail addresses or phone numbers. */
function scrub(text: string): string {
  return text
    .replace(/\nparams: [^\n]*/g, '\nparams: [redacted]')
    .replace(EMAIL, '[email]')
    .replace(PHONE, '[phone]');
}

/** `String(v)`, or a placeholder when `v` cannot be made a string (an object whose `toString` is not a function). */
function safeString(v: unknown): string {
  try {
    return String(v);
  } catch {
    return '[not a string]';
  }
}

/** A logged error and its causes: type, scrubbed message and stack, code and constraint; no row values. */
export function privateError(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error) || depth > 5) return err;
  // An error's message or stack need not be a string (a library may copy a field of a reply into it): the serializer
  // must never throw, or the error handler throws with it (issue 39, twentieth re-run).
  const text = (v: unknown) => (typeof v === 'string' ? v : safeString(v));
  const out: Record<string, unknown> = { type: err.constructor?.name ?? 'Error', message: scrub(text(err.message)) };
  // V8 writes the stack when it is first read, from the message: reading it may throw too.
  const stack = (() => {
    try {
      return err.stack;
    } catch {
      return undefined;
    }
  })();
  if (stack) out.stack = scrub(text(stack));
  for (const [k, v] of Object.entries(err)) {
    if (VALUE_PROPERTIES.has(k) || k === 'cause') continue;
    out[k] = typeof v === 'string' ? scrub(v) : v;
  }
  if (err.cause !== undefined) out.cause = privateError(err.cause, depth + 1);
  return out;
}

/** Options merged into every Fastify/pino logger of the app. */
export const privateLogOptions = {
  redact: {
    paths: [
      ...PERSONAL_FIELDS,
      ...PERSONAL_FIELDS.map((f) => `*.${f}`),
      'req.headers.authorization',
      'req.headers.cookie',
    ],
    censor: '[redacted]',
  },
  serializers: {
    err: (err: Error) => privateError(err) as { [key: string]: unknown; type: string; message: string; stack: string },
  },
};
