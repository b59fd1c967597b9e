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

// A match starts only where a run of address characters starts (the lookbehind): tried at every position, the `+`
// made the scan quadratic in a long text without '@' (a 100 KB message took 28 s; issue 39, twenty-first re-run).
const EMAIL = /(?<![^\s@'"(),;=<>])[^\s@'"(),;=<>]+@[^\s@'"(),;=<>]+\.[a-z]{2,}/gi;
const PHONE = /\+\d[\d\s-]{6,}\d/g;

/** Most characters of one text of a logged error (a message, a stack, a property); the rest is cut. */
const LOGGED_TEXT_MAX = 4000;

/** Characters scanned past the cut, so that an address or number across it is masked whole (an address is at most 320). */
const SCRUB_OVERLAP = 400;

/** Characters a phone number is written with (digits and their separators). */
const PHONE_PART = /[\d\s+()./-]/;

/** Characters that end a run an address can be part of (the complement of {@link EMAIL}'s character class, and '@'). */
const SEPARATOR = /[\s'"(),;=<>]/;

/**
 * Untrusted text: any run holding an '@' (no domain needed: `alice@localhost`), from where the run starts, with a
 * quoted local part before it (`"alice smith"@example.com`).
 */
const ANY_AT = /(?:"[^"\n]{0,64}")?(?<![^\s'"(),;=<>])[^\s'"(),;=<>]*@[^\s'"(),;=<>]*/g;
/** Untrusted text: seven digits or more with up to three separators between them (`0412 345 678`, `(04) 1234 5678`). */
const DIGIT_RUN = /[+(]?\d(?:[\s()./-]{0,3}\d){6,}/g;

/**
 * `s` without its last run of address characters and the phone characters before it (at most
 * {@link SCRUB_OVERLAP} of them): the run the window's end cut, of which only the start is in the window, too little
 * to be recognised and masked as a whole.
 */
function dropCutRun(s: string): string {
  let i = s.length;
  while (i > 0 && s.length - i < SCRUB_OVERLAP && !SEPARATOR.test(s[i - 1])) i--;
  // Then the digits and their separators before it: a spaced phone number cut there (`+64 21 5`) is too short to
  // be masked and would leave its first groups in clear (issue 39, twenty-fourth re-run).
  while (i > 0 && s.length - i < SCRUB_OVERLAP && PHONE_PART.test(s[i - 1])) i--;
  return s.slice(0, i);
}

/** How {@link scrub} reads a text. */
export interface ScrubOptions {
  /** Most characters kept (default 4,000); the rest is cut and its length noted (`…[N characters]`). */
  max?: number;
  /**
   * Text anyone may have written (a device's log): read after NFKC folding (`＠` is `@`, fullwidth digits are digits),
   * and any run with an '@' and any run of seven digits are masked, not only well-formed addresses and `+` numbers.
   */
  untrusted?: boolean;
}

/**
 * A message or stack without bound parameters, e-mail addresses or phone numbers, cut to `max` characters (an
 * outside service's error text may be a megabyte: it is neither scanned nor written whole). The text is masked a
 * little past the cut, then cut, and the run the scanned window's end cuts is dropped first, so no part of an
 * address across either is left in clear.
 */
export function scrub(full: string, options: ScrubOptions = {}): string {
  const max = options.max ?? LOGGED_TEXT_MAX;
  const long = full.length > max;
  let text = long ? full.slice(0, max + SCRUB_OVERLAP) : full;
  if (options.untrusted) text = text.normalize('NFKC');
  if (full.length > max + SCRUB_OVERLAP) text = dropCutRun(text);
  text = text
    .replace(/\nparams: [^\n]*/g, '\nparams: [redacted]')
    .replace(EMAIL, '[email]')
    .replace(PHONE, '[phone]');
  if (options.untrusted) text = text.replace(ANY_AT, '[email]').replace(DIGIT_RUN, '[phone]');
  return long ? `${text.slice(0, max)}…[${full.length} characters]` : text;
}

/** `String(v)`, or a placeholder when `v` cannot be made a string (an object whose `toString` is not a function). */
function safeString(v: unknown): string {
  try {
    return String(v);
  } catch {
    return '[not a string]';
  }
}

/** `JSON.stringify(v)`, or a placeholder when it cannot be (a cycle, a BigInt). */
function safeJson(v: object): string {
  try {
    return JSON.stringify(v) ?? '';
  } catch {
    return '[not serialisable]';
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
  for (const [k, v] of Object.entries(err) as [string, unknown][]) {
    if (VALUE_PROPERTIES.has(k) || k === 'cause') continue;
    // An object a library keeps on its error (Stripe's `raw` answer, headers) is logged as scrubbed text: its strings
    // may hold what the message had before scrubbing.
    out[k] = typeof v === 'string' ? scrub(v) : typeof v === 'object' && v !== null ? scrub(safeJson(v)) : v;
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
