/**
 * Fuzz of the whole HTTP surface (issue 14, item 5): every operation of the OpenAPI document the app
 * serves, plus the public pages it hides from the document, called with values drawn from each
 * operation's own schemas and with hostile ones (ids ≥ 2^31 and negative, huge strings, NUL and odd
 * unicode, wrong types, missing and extra fields, raw `%00` in paths, malformed JSON, multipart bodies
 * with many fields). Issue 39: every string it sends, in a body, a query, a path or a header, may carry a
 * control character (U+0000–U+001F, U+007F), a lone surrogate, U+2028/2029 or a BOM, put into an otherwise
 * valid value so that it gets past the schema to the services and the database. A user's mistake is never
 * a 500: the run asserts no 5xx and no stack trace or SQL in any body. One app, one signed-in token, the demo organisation's API key and the admin key serve the whole run (fast-check generates the requests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, WALLET_TEST_PASS_TYPE_ID } from '../src/config.js';
import { bearer, createTestApp, onPostgres, rawQuery, type TestApp } from './helper.js';

/**
 * Requests per run: 10,000 on PGlite (the issue asks for at least 10,000), the first 2,500 of the same sequence on
 * PostgreSQL (issue 42: the main lane's CPU). Both are the same PostgreSQL behind a different driver; what a
 * generated value does in SQL is found on PGlite, and the first 2,500 reach every operation on the driver of
 * PostgreSQL (about 20 each). `FUZZ_RUNS=<n>` runs another count on either.
 */
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : onPostgres() ? 2_500 : 10_000;
if (!Number.isSafeInteger(RUNS) || RUNS < 1)
  throw new Error(`FUZZ_RUNS must be a positive integer, not ${process.env.FUZZ_RUNS}`);
/**
 * fast-check's seed: fixed, so every CI run sends the same requests and a failure replays as it is (issue 43);
 * `FUZZ_SEED=<integer>` runs another seed, `FUZZ_SEED=random` a random one (printed first and named in a failure).
 */
const FIXED_SEED = 20_261_128;
const SEED =
  process.env.FUZZ_SEED === 'random'
    ? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0
    : process.env.FUZZ_SEED
      ? Number(process.env.FUZZ_SEED)
      : FIXED_SEED;
if (!Number.isSafeInteger(SEED)) throw new Error(`FUZZ_SEED must be an integer, not ${process.env.FUZZ_SEED}`);
console.log(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run apps/api/test/fuzz.test.ts)`);

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
  multipart?: boolean;
  form?: boolean;
}
interface Req {
  /** The operation's path template, for the report. */
  route: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

const INT4 = 2 ** 31;
const HOSTILE_NUMBERS = [
  INT4,
  INT4 - 1,
  INT4 + 1,
  -INT4 - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -1,
  0,
  1.5,
  -0.01,
  1e21,
  -1e21,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  0.1 + 0.2,
];
/**
 * Characters that have no business in text (issue 39): every C0 control and DEL, lone surrogates (both halves),
 * the line and paragraph separators, the BOM. PostgreSQL refuses the first (NUL) in text and jsonb.
 */
const CONTROL = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  '\u007F',
  '\uD800',
  '\uDBFF',
  '\uDC00',
  '\uDFFF',
  '\u2028',
  '\u2029',
  '\uFEFF',
];
/** A control character, NUL half of the time (the one PostgreSQL refuses: what used to be a 500). */
const control = fc.oneof(fc.constant('\u0000'), fc.constantFrom(...CONTROL));
/** `arb`'s strings with one to three control characters put in at random places (start, middle, end). */
const poisoned = (arb: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(arb, fc.array(fc.tuple(control, fc.nat()), { minLength: 1, maxLength: 3 }))
    .map(([s, cs]) =>
      cs.reduce((acc, [c, at]) => acc.slice(0, at % (acc.length + 1)) + c + acc.slice(at % (acc.length + 1)), s),
    );
/** Header names a client may send to any route, besides the ones an operation declares. */
const ANY_HEADERS = [
  'x-organisation',
  'accept-language',
  'origin',
  'referer',
  'user-agent',
  'x-request-id',
  'x-forwarded-for',
  'cookie',
  'if-none-match',
  'idempotency-key',
  'x-scanner-key',
  'x-door-device',
];

const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'x@example.com\u0000',
  '%00',
  '\uD800',
  'a\uDFFFb',
  '\u202Egnp.exe',
  '\uFEFF',
  '\u200B',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '👩‍👩‍👧‍👦',
  'İıß',
  'line\r\nbreak',
  "' OR '1'='1",
  '"; drop table users; --',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '(-)',
  '()',
  '+',
  ' - ',
  '2147483648',
  '-1',
  '0',
  '1e400',
  'NaN',
  'null',
  '[]',
  '{}',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'x'.repeat(5_000),
  'é'.repeat(2_000),
];
/** Issue 39: each control character alone and inside text. */
const CONTROL_STRINGS = [...CONTROL, ...CONTROL.map((c) => `a${c}b`)];
/** Path segments sent as they are (not encoded): what a client can put in a URL by hand. */
const RAW_SEGMENTS = [
  '%00',
  '%',
  '%ZZ',
  '%2F',
  '..',
  '.',
  '%C0%AE',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '-1',
  '2147483648',
  '1e3',
  '0x10',
  ' ',
  '%20',
];

/** encodeURIComponent that tolerates lone surrogates (they cannot travel in a URL anyway). */
const enc = (s: string): string => {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
};

const hostileScalar = fc.oneof(
  fc.constantFrom<unknown>(...HOSTILE_NUMBERS, ...HOSTILE_STRINGS, null, true, false),
  fc.constantFrom<unknown>([], {}, [null], { a: 1 }, [INT4], ['\u0000'], { 'k\u0000': 1 }),
  fc.constantFrom<unknown>(...CONTROL_STRINGS),
);

/** Values that follow the schema (bounded, so that rows exist for small ids). */
function valid(schema: Schema | undefined, depth: number): fc.Arbitrary<unknown> {
  if (!schema) return fc.anything({ maxDepth: 1 });
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((s) => value(s, depth)));
  if (schema.allOf?.length) return value(schema.allOf[0], depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer': {
      const min = Math.max(schema.minimum ?? -INT4, -INT4) + (schema.exclusiveMinimum === true ? 1 : 0);
      const max = Math.min(schema.maximum ?? INT4, INT4 + 10);
      return fc.oneof(
        fc.integer({ min: Math.max(min, 0), max: Math.min(Math.max(min, 0) + 30, max) }),
        fc.integer({ min, max }),
      );
    }
    case 'number':
      return fc.oneof(
        fc.integer({ min: 0, max: 500 }),
        fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true }),
      );
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(value(schema.items, depth + 1), { maxLength: depth > 2 ? 1 : 4 });
    case 'object': {
      const props = schema.properties ?? {};
      const keys = Object.keys(props);
      const rec = fc.record(Object.fromEntries(keys.map((k) => [k, value(props[k], depth + 1)])), {
        requiredKeys: (schema.required ?? []).filter((k) => keys.includes(k)),
      });
      return fc.oneof(
        { weight: 4, arbitrary: rec },
        // Missing required fields, and extra ones.
        {
          weight: 1,
          arbitrary: fc.record(Object.fromEntries(keys.map((k) => [k, value(props[k], depth + 1)])), {
            requiredKeys: [],
          }),
        },
        {
          weight: 1,
          arbitrary: fc
            .tuple(rec, fc.dictionary(fc.string({ maxLength: 8 }), hostileScalar, { maxKeys: 3 }))
            .map(([r, extra]) => ({ ...extra, ...r, __proto__x: 1 })),
        },
      );
    }
    case 'string':
    default: {
      return cleanString(schema);
    }
  }
}

/** A string that follows a string schema (format, pattern, length). */
function cleanString(schema: Schema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'uri') return fc.webUrl({ withQueryParameters: true });
  if (schema.format === 'date' || schema.format === 'date-time')
    return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  const sized = fc.string({
    unit: 'grapheme',
    minLength: schema.minLength ?? 0,
    maxLength: Math.min(schema.maxLength ?? 40, 40),
  });
  if (schema.pattern) {
    try {
      return fc.oneof(fc.stringMatching(new RegExp(schema.pattern), { size: 'small' }), sized);
    } catch {
      return sized;
    }
  }
  return fc.oneof(
    sized,
    fc.constantFrom('alice', 'bob', 'alice@example.com', 'AU', 'NZ', 'AUD', 'en', 'es', '+61 400 000 000'),
  );
}

/**
 * A value that follows the schema all the way down (no hostile branch, required fields present, strings matching
 * their pattern): the base of a request that one control character then spoils (issue 39), so that it gets past
 * every other check of the route.
 */
function strict(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant({});
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((x) => strict(x, depth)));
  if (schema.allOf?.length) return strict(schema.allOf[0], depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object') {
    const props = schema.properties ?? {};
    const keys = Object.keys(props);
    return fc.record(Object.fromEntries(keys.map((k) => [k, strict(props[k], depth + 1)])), {
      requiredKeys: (schema.required ?? []).filter((k) => keys.includes(k)),
    });
  }
  if (type === 'array') return fc.array(strict(schema.items, depth + 1), { minLength: 1, maxLength: 2 });
  if (type === 'string' || type === undefined) {
    if (schema.pattern)
      try {
        return fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' });
      } catch {
        /* the generic string below */
      }
    return cleanString(schema);
  }
  return valid(schema, depth);
}

/** A value for a schema: mostly valid, sometimes hostile for its type, sometimes of another type. */
function value(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: valid(schema, depth) },
    { weight: 3, arbitrary: hostileScalar },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  );
}

/** A path parameter: the value encoded, or a raw hostile segment. */
function segment(schema: Schema | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: valid(schema, 0).map((v) => enc(String(v))) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...HOSTILE_STRINGS, ...HOSTILE_NUMBERS.map(String)).map(enc),
    },
    { weight: 1, arbitrary: fc.constantFrom(...CONTROL_STRINGS).map(enc) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  );
}

function query(params: Parameter[]): fc.Arbitrary<string> {
  const qs = params.filter((p) => p.in === 'query');
  const pairs = fc.tuple(
    ...qs.map((p) =>
      fc.option(
        value(p.schema).map((v) => `${p.name}=${enc(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))}`),
        { nil: undefined },
      ),
    ),
    fc.option(fc.constantFrom('x=%00', 'status=%00', 'lang=es', 'a[b]=1', `${'k'.repeat(300)}=1`), { nil: undefined }),
  );
  return pairs.map((ps) => {
    const q = ps.filter(Boolean).join('&');
    return q ? `?${q}` : '';
  });
}

const BOUNDARY = '----fuzzboundary';
/** A multipart body: up to 9 text fields, then maybe a file part of random bytes. */
const multipart = fc
  .tuple(
    fc.array(
      fc.tuple(
        fc.constantFrom('a', 'b', 'file', 'name', 'x'.repeat(50)),
        fc.oneof(fc.constantFrom(...HOSTILE_STRINGS.slice(0, 20)), poisoned(fc.constantFrom('alice', 'x.png', ''))),
      ),
      { maxLength: 9 },
    ),
    fc.option(
      fc.tuple(
        fc.constantFrom('file', 'avatar', ''),
        fc.constantFrom('image/png', 'image/svg+xml', 'text/plain', 'application/octet-stream'),
        fc.uint8Array({ maxLength: 64 }),
      ),
      { nil: undefined },
    ),
  )
  .map(([fields, file]) => {
    const parts: Buffer[] = fields.map(([name, v]) =>
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`),
    );
    if (file)
      parts.push(
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file[0]}"; filename="a.png"\r\nContent-Type: ${file[1]}\r\n\r\n`,
        ),
        Buffer.from(file[2]),
        Buffer.from('\r\n'),
      );
    parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
    return Buffer.concat(parts);
  });

/** Everything the server has routes for: the OpenAPI operations and the hidden public pages. */
function operations(doc: {
  paths: Record<
    string,
    Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>
  >;
}): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content ?? {};
      ops.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: content['application/json']?.schema,
        multipart: 'multipart/form-data' in content || path.endsWith('/avatar'),
      });
    }
  const str = (maxLength = 64): Schema => ({ type: 'string', maxLength });
  const p = (name: string, schema: Schema = str()): Parameter => ({ name, in: 'path', required: true, schema });
  const buyForm: Schema = {
    type: 'object',
    properties: {
      quantity: { type: 'integer', minimum: 1, maximum: 10 },
      email: { type: 'string', format: 'email' },
      idempotencyKey: str(100),
    },
    required: ['quantity', 'email', 'idempotencyKey'],
  };
  const lang: Parameter = { name: 'lang', in: 'query', schema: { type: 'string', enum: ['en', 'es'] } };
  ops.push(
    { method: 'GET', path: '/r/{token}', parameters: [p('token'), lang] },
    { method: 'POST', path: '/r/{token}', parameters: [p('token'), lang], body: buyForm, form: true },
    {
      method: 'GET',
      path: '/resale/checkout/{orderId}',
      parameters: [p('orderId', { type: 'string', format: 'uuid' })],
    },
    {
      method: 'POST',
      path: '/resale/checkout/{orderId}',
      parameters: [p('orderId', { type: 'string', format: 'uuid' })],
      form: true,
      body: { type: 'object' },
    },
    { method: 'GET', path: '/resale/done/{orderId}', parameters: [p('orderId')] },
    {
      method: 'GET',
      path: '/checkout/{locale}/{slug}/{orderIdentifier}',
      parameters: [
        p('locale'),
        p('slug'),
        p('orderIdentifier'),
        { name: 'redirectDomain', in: 'query', schema: str(2000) },
      ],
    },
    {
      method: 'POST',
      path: '/checkout/{locale}/{slug}/{orderIdentifier}',
      parameters: [p('locale'), p('slug'), p('orderIdentifier')],
      form: true,
      body: { type: 'object' },
    },
    {
      method: 'POST',
      path: '/v1/resell/stripe/webhook',
      parameters: [{ name: 'stripe-signature', in: 'header', schema: str() }],
      body: { type: 'object', properties: { id: str(), type: str() } },
    },
    { method: 'GET', path: '/dev/mail', parameters: [] },
    { method: 'GET', path: '/scanner', parameters: [lang] },
    { method: 'GET', path: '/', parameters: [lang] },
  );
  return ops;
}

/** The bearer each part of the API takes: the holder's token, an organisation API key, the admin key. */
interface Keys {
  token: string;
  org: string;
  admin: string;
  /** The door key (`x-scanner-key`) of the /v1/access routes. */
  door: string;
  /** A pass of alice's in Apple's update web service: its type, serial and `ApplePass` token (issue 39). */
  apple: { passTypeIdentifier: string; serialNumber: string; token: string };
}

function request(op: Operation, keys: Keys): fc.Arbitrary<Req> {
  const apple = op.path.startsWith('/v1/wallet/apple/');
  const token = op.path.startsWith('/v1/org/')
    ? keys.org
    : op.path.startsWith('/v1/admin/')
      ? keys.admin
      : apple
        ? keys.apple.token
        : keys.token;
  // Apple's web service: the real pass's type and serial most of the time, so requests get past its token check.
  const known: Record<string, string> = apple
    ? { passTypeIdentifier: keys.apple.passTypeIdentifier, serialNumber: keys.apple.serialNumber }
    : {};
  const pathOf = (param: (x: Parameter) => fc.Arbitrary<string>) =>
    fc
      .tuple(
        ...op.parameters
          .filter((x) => x.in === 'path')
          .map((x) =>
            (x.name in known
              ? fc.oneof({ weight: 3, arbitrary: fc.constant(enc(known[x.name])) }, param(x))
              : param(x)
            ).map((s) => [x.name, s] as const),
          ),
      )
      .map((pairs) => pairs.map(([name, s]) => [name, s] as [string, string]));
  const path = pathOf((x) => segment(x.schema));
  const headers = fc.tuple(
    // Sign-out would end the shared session: it is called with someone else's token only.
    fc.constantFrom<'token' | 'none' | 'junk' | 'poisoned'>(
      ...(op.path === '/v1/auth/logout'
        ? (['junk', 'none'] as const)
        : (['token', 'token', 'token', 'token', 'none', 'junk', 'poisoned'] as const)),
    ),
    // Issue 39: header values as the schema has them, or with control characters (inject sends any string as it is).
    ...op.parameters
      .filter((x) => x.in === 'header')
      .map((x) =>
        fc.option(
          fc
            .oneof(
              value(x.schema).map((v) => String(v).replace(/[^\x20-\x7e]/g, '')),
              poisoned(value(x.schema).map(String)),
            )
            .map((v) => [x.name, v] as const),
          { nil: undefined },
        ),
      ),
    fc.option(
      fc.tuple(
        fc.constantFrom(...ANY_HEADERS),
        fc.oneof(poisoned(fc.constantFrom('demo', 'en', 'http://panel.test', 'abc')), fc.constantFrom(...CONTROL)),
      ),
      { nil: undefined },
    ),
  );
  const csvRow = fc
    .tuple(
      fc.oneof(fc.string({ maxLength: 12 }), poisoned(fc.constantFrom('T-1', 'T-2'))),
      fc.constantFrom('ga', 'x', '', 'ga\u0000'),
      fc.oneof(fc.emailAddress(), fc.string(), poisoned(fc.emailAddress())),
    )
    .map((cells) => cells.join(','));
  const body: fc.Arbitrary<{ type?: string; payload?: string | Buffer }> = op.path.endsWith('/tickets/import')
    ? fc.oneof(
        fc.array(csvRow, { maxLength: 5 }).map((rows) => ({
          type: 'text/csv',
          payload: ['externalId,ticketTypeExternalId,holderEmail', ...rows].join('\n'),
        })),
        fc.string().map((payload) => ({ type: 'text/csv', payload })),
        fc.constant({ type: 'application/json', payload: '{}' }),
      )
    : op.multipart
      ? fc.oneof(
          {
            weight: 5,
            arbitrary: multipart.map((payload) => ({ type: `multipart/form-data; boundary=${BOUNDARY}`, payload })),
          },
          { weight: 1, arbitrary: fc.constant({ type: 'multipart/form-data', payload: 'garbage' }) },
          { weight: 1, arbitrary: fc.constant({ type: 'application/json', payload: '{}' }) },
        )
      : op.form
        ? fc.oneof(
            value(op.body).map((v) => ({
              type: 'application/x-www-form-urlencoded',
              payload:
                v && typeof v === 'object' && !Array.isArray(v)
                  ? new URLSearchParams(
                      Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : (JSON.stringify(x) ?? '')]),
                    ).toString()
                  : String(v),
            })),
            fc.constantFrom(
              { type: 'application/x-www-form-urlencoded', payload: '%00=%00&quantity=%' },
              { type: 'application/json', payload: '{"quantity":1e400}' },
            ),
          )
        : op.body
          ? fc.oneof(
              {
                weight: 8,
                arbitrary: value(op.body).map((v) => ({
                  type: 'application/json',
                  payload: JSON.stringify(v) ?? 'null',
                })),
              },
              {
                weight: 1,
                arbitrary: fc
                  .constantFrom(
                    '{',
                    '{"a":',
                    '[1,2',
                    '"\\u0000"',
                    '{"__proto__":{"x":1}}',
                    '{"constructor":{"prototype":{"x":1}}}',
                    'null',
                    '',
                  )
                  .map((payload) => ({ type: 'application/json', payload })),
              },
              {
                weight: 1,
                arbitrary: fc.constantFrom(
                  { type: 'text/plain', payload: 'hello' },
                  { type: 'application/xml', payload: '<a/>' },
                  {},
                ),
              },
            )
          : fc.oneof(
              { weight: 5, arbitrary: fc.constant({}) },
              { weight: 1, arbitrary: fc.constant({ type: 'application/json', payload: '{"extra":true}' }) },
            );
  // Issue 39: one time in two, one control character put into one string of an otherwise generated request (a
  // path parameter, a query value, a JSON string or key, a form field, the CSV), so it gets past the schema.
  const poison = fc.option(
    fc.record({
      where: fc.constantFrom('path', 'query', 'body', 'body', 'body'),
      pick: fc.nat(),
      c: control,
      at: fc.nat(),
    }),
    { nil: undefined, freq: 2 },
  );
  // Issue 39: a request that follows the route's schemas everywhere, with one control character in one string.
  const cleanBody: fc.Arbitrary<{ type?: string; payload?: string | Buffer }> =
    op.body && !op.multipart && !op.path.endsWith('/tickets/import')
      ? strict(op.body).map((v) =>
          op.form
            ? {
                type: 'application/x-www-form-urlencoded',
                payload: new URLSearchParams(
                  Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, String(x)]),
                ).toString(),
              }
            : { type: 'application/json', payload: JSON.stringify(v) },
        )
      : body;
  const cleanQuery = fc
    .tuple(
      ...op.parameters
        .filter((x) => x.in === 'query')
        .map((x) =>
          fc.option(
            strict(x.schema).map((v) => `${x.name}=${enc(String(v))}`),
            { nil: undefined },
          ),
        ),
    )
    .map((ps) => (ps.some(Boolean) ? `?${ps.filter(Boolean).join('&')}` : ''));
  const cleanHeaders = fc.tuple(
    // Sign-out would end the shared session (as above).
    fc.constant<'token' | 'junk'>(op.path === '/v1/auth/logout' ? 'junk' : 'token'),
    ...op.parameters
      .filter((x) => x.in === 'header')
      .map((x) =>
        fc.option(
          strict(x.schema).map((v) => [x.name, String(v)] as const),
          { nil: undefined },
        ),
      ),
  );
  const onePoison = fc.record({
    where: fc.constantFrom('path', 'query', 'body', 'body', 'body'),
    pick: fc.nat(),
    c: control,
    at: fc.nat(),
  });
  const clean = fc.tuple(
    pathOf((x) => strict(x.schema).map((v) => enc(String(v)))),
    cleanQuery,
    cleanHeaders as unknown as typeof headers,
    cleanBody,
    onePoison,
  );
  const hostile = fc.tuple(path, query(op.parameters), headers, body, poison);
  return fc.oneof(hostile, clean).map(([segments, qs, [auth, ...extra], b, p]) => {
    if (p?.where === 'path' && segments.length) {
      const i = p.pick % segments.length;
      segments[i] = [segments[i][0], enc(insertAt(decodeOrKeep(segments[i][1]), p.c, p.at))];
    }
    if (p?.where === 'query' && qs) qs = poisonQuery(qs, p);
    if (p?.where === 'body' && typeof b.payload === 'string') b = { ...b, payload: poisonBody(b.type, b.payload, p) };
    const url = segments.reduce((u, [name, seg]) => u.replace(`{${name}}`, seg), op.path);
    const h: Record<string, string> = {};
    const scheme = apple ? 'ApplePass' : 'Bearer';
    if (auth === 'token') h.authorization = `${scheme} ${token}`;
    if (auth === 'junk') h.authorization = 'Bearer eyJhbGciOiJub25lIn0.eyJ1c2VySWQiOjIxNDc0ODM2NDh9.';
    if (auth === 'poisoned') h.authorization = `${scheme} ${token}\u0000`;
    if (op.path.startsWith('/v1/access/') && auth !== 'none') h['x-scanner-key'] = keys.door;
    for (const e of extra) if (e) h[e[0]] = e[1];
    if (b.type) h['content-type'] = b.type;
    return { route: op.path, method: op.method, url: url + qs, headers: h, payload: b.payload };
  });
}

/** `s` with `c` put in at `at` (modulo its length + 1). */
const insertAt = (s: string, c: string, at: number) => {
  const i = at % (s.length + 1);
  return s.slice(0, i) + c + s.slice(i);
};
/** A path segment decoded (what the router will hand the route), or as it is when it does not decode. */
const decodeOrKeep = (seg: string) => {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
};
interface Poison {
  pick: number;
  c: string;
  at: number;
}
/** One value of a query string (`?a=1&b=2`) with the character put in (encoded). */
function poisonQuery(qs: string, p: Poison): string {
  const pairs = qs.slice(1).split('&');
  const i = p.pick % pairs.length;
  const [k, ...v] = pairs[i].split('=');
  pairs[i] = `${k}=${enc(insertAt(decodeOrKeep(v.join('=')), p.c, p.at))}`;
  return `?${pairs.join('&')}`;
}
/** Every string (and key) of a JSON value with its place, to pick one from. */
function stringsOf(v: unknown, set: (s: string) => void, out: { get: () => string; set: (s: string) => void }[]) {
  if (typeof v === 'string') out.push({ get: () => v, set });
  else if (Array.isArray(v)) v.forEach((x, i) => stringsOf(x, (s) => (v[i] = s), out));
  else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      out.push({
        get: () => k,
        set: (s) => {
          o[s] = o[k];
          delete o[k];
        },
      });
      stringsOf(o[k], (s) => (o[k] = s), out);
    }
  }
}
/** The body with the character put into one of its strings: a JSON string or key, a form field, the CSV text. */
function poisonBody(type: string | undefined, payload: string, p: Poison): string {
  if (type === 'application/json') {
    let root: unknown;
    try {
      root = JSON.parse(payload);
    } catch {
      return payload;
    }
    const places: { get: () => string; set: (s: string) => void }[] = [];
    stringsOf(root, (s) => (root = s), places);
    if (!places.length) return payload;
    const place = places[p.pick % places.length];
    place.set(insertAt(place.get(), p.c, p.at));
    return JSON.stringify(root);
  }
  if (type === 'application/x-www-form-urlencoded') {
    const form = [...new URLSearchParams(payload)];
    if (!form.length) return payload;
    const i = p.pick % form.length;
    form[i][1] = insertAt(form[i][1], p.c, p.at);
    return new URLSearchParams(form).toString();
  }
  if (type === 'text/csv') {
    const lines = payload.split('\n');
    if (lines.length < 2) return payload;
    const i = 1 + (p.pick % (lines.length - 1));
    lines[i] = insertAt(lines[i], p.c, p.at);
    return lines.join('\n');
  }
  return payload;
}

/** What a body must never show: a stack trace, SQL or driver internals. */
const LEAK =
  /\n\s+at \S+ \(|at [\w$.<>]+ \([^)]*:\d+:\d+\)|\b(select|update|delete)\s+[\w"*.,\s]+\s+(from|set)\s|insert into|violates|duplicate key|syntax error|relation "|column "|invalid input (syntax|value)|out of range for type|PGlite|node_modules|drizzle/i;

/** A stand-in for the Vite build, so the pages that serve built documents (/en/, /scanner) answer as deployed. */
const dist = mkdtempSync(join(tmpdir(), 'tp-fuzz-dist-'));
mkdirSync(join(dist, 'scanner'));
for (const file of ['index.html', join('scanner', 'index.html')])
  writeFileSync(join(dist, file), '<!doctype html>\n<html lang="en"><head></head><body></body></html>');

let t: TestApp;
let keys: Keys;
beforeAll(async () => {
  // Wallet test mode (issue 39): Apple's web service is fuzzed with a real pass's token. The set-up's one pass starts
  // the signing thread: on a loaded CI machine that took past the 10 s default deadline (503 api.wallet.busy), which
  // is not what this file tests (wallet-signing.test.ts does).
  const wallet = loadConfig(
    { WALLET_TEST_MODE: 'true', WALLET_SIGNING_DEADLINE_SECONDS: '120' },
    { dataDir: mkdtempSync(join(tmpdir(), 'tp-fuzz-wallet-')) },
  ).wallet;
  t = await createTestApp({
    seed: true,
    // The run asserts on answers only: the jobs its requests queue (mails, wallet updates, webhooks) are run by the
    // app's own worker (every JOB_POLL_MS), not after each of the 10,000 requests, whose job claims (one per lane)
    // took two thirds of the run's time (issue 42: 93 s to 27 s on PGlite, 111 s to 30 s on PostgreSQL).
    runJobs: false,
    config: {
      redeemPerMinute: 100_000,
      resaleBuysPerIpPerMinute: 100_000,
      walletPerMinute: 100_000,
      panelDistDir: dist,
      adminKey: 'fuzz-admin-key',
      wallet,
    },
  });
  const org = await t.app.services.organisations.admin.addKeyBySlug('demo');
  const token = (await t.signIn('alice@example.com')).accessToken;
  await rawQuery(t.database.db, `update events set pass_reveal_at = '2000-01-01T00:00:00Z'`);
  const [held] = (await t.app.inject({ url: '/v1/resell/tickets/available', headers: bearer(token) })).json<
    { userTicketId: number }[]
  >();
  const download = await t.app.inject({ url: `/v1/tickets/${held.userTicketId}/wallet/apple`, headers: bearer(token) });
  expect(download.statusCode, download.body).toBe(200);
  const [pass] = (
    await rawQuery<{ serial_number: string; authentication_token: string }>(
      t.database.db,
      'select serial_number, authentication_token from wallet_passes',
    )
  ).rows;
  keys = {
    token,
    org: org!.apiKey,
    admin: 'fuzz-admin-key',
    door: t.config.scannerKey,
    apple: {
      passTypeIdentifier: WALLET_TEST_PASS_TYPE_ID,
      serialNumber: pass.serial_number,
      token: pass.authentication_token,
    },
  };
}, 180_000); // the set-up builds an app and signs a pass: on a loaded CI machine it took past the default 60 s
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('fuzz of the OpenAPI document and the public pages', () => {
  it(`${RUNS} generated requests: no 5xx, no stack trace or SQL in any body`, { timeout: 600_000 }, async () => {
    const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json<Parameters<typeof operations>[0]>();
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(40);
    const requests = fc.sample(fc.oneof(...ops.map((op) => request(op, keys))), { numRuns: RUNS, seed: SEED });
    const failures = new Map<string, { req: Req; status: number; body: string }>();
    const statuses: Record<number, number> = {};
    for (const req of requests) {
      const res = await t.app.inject({
        method: req.method as 'GET',
        url: req.url,
        headers: req.headers,
        payload: req.payload,
      });
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      if (res.statusCode >= 500 || LEAK.test(res.body)) {
        const route = `${req.method} ${req.route} ${res.statusCode}`;
        if (!failures.has(route))
          failures.set(route, {
            req: { ...req, payload: String(req.payload).slice(0, 300) },
            status: res.statusCode,
            body: res.body.slice(0, 300),
          });
      }
    }
    expect(requests).toHaveLength(RUNS);
    // Enough requests got past validation to reach the services.
    expect((statuses[200] ?? 0) + (statuses[204] ?? 0)).toBeGreaterThan(RUNS / 50);
    expect([...failures.entries()], `replay with FUZZ_SEED=${SEED}; statuses ${JSON.stringify(statuses)}`).toEqual([]);
  });
});

/*
 * Issue 19: form-encoded and multipart bodies (what a plain HTML form on any site can send) to every route
 * that sets the refresh cookie and every organiser route, with and without credentials and a cross-site
 * Origin. Never a 5xx or a leak; the cookie routes answer 403 and set no cookie.
 */
describe('form-encoded and multipart bodies to cookie-setting and organiser routes', () => {
  it(
    'answers each without a 5xx; the cookie routes refuse them with 403 and set no cookie',
    { timeout: 600_000 },
    async () => {
      const doc = (await t.app.inject({ url: '/v1/openapi.json' })).json<Parameters<typeof operations>[0]>();
      const cookieRoutes = ['/v1/auth/refresh', '/v1/auth/verifyLoginRequest'];
      const targets = operations(doc).filter(
        (op) =>
          op.method !== 'GET' &&
          (cookieRoutes.includes(op.path) || op.path.startsWith('/v1/org/') || op.path.startsWith('/v1/admin/')),
      );
      expect(targets.filter((op) => cookieRoutes.includes(op.path))).toHaveLength(2);
      expect(targets.length).toBeGreaterThan(8);
      const boundary = 'fuzzboundary';
      const bodies = [
        { type: 'application/x-www-form-urlencoded', payload: 'refreshToken=x&email=a%40b.c&name=%00&externalId=1' },
        { type: 'application/x-www-form-urlencoded', payload: '%00=%00&a[b]=c&=' },
        {
          type: `multipart/form-data; boundary=${boundary}`,
          payload: `--${boundary}\r\nContent-Disposition: form-data; name="refreshToken"\r\n\r\nx\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nexternalId\r\n1\r\n--${boundary}--\r\n`,
        },
        { type: `multipart/form-data; boundary=${boundary}`, payload: `--${boundary}\r\nbroken` },
      ];
      const failures: string[] = [];
      for (const op of targets) {
        const url = op.path.replace(/\{[^}]+\}/g, 'fuzz-1');
        const auth = op.path.startsWith('/v1/admin/') ? keys.admin : op.path.startsWith('/v1/org/') ? keys.org : null;
        for (const body of bodies)
          for (const headers of [
            { origin: 'https://evil.example' },
            { origin: 'http://panel.test', ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
          ] as Record<string, string>[]) {
            const res = await t.app.inject({
              method: op.method as 'POST',
              url,
              headers: { ...headers, 'content-type': body.type },
              payload: body.payload,
            });
            const where = `${op.method} ${op.path} ${body.type.split(';')[0]} ${headers.origin}: ${res.statusCode}`;
            if (res.statusCode >= 500 || LEAK.test(res.body)) failures.push(`${where} ${res.body.slice(0, 200)}`);
            if (cookieRoutes.includes(op.path)) {
              if (res.statusCode !== 403) failures.push(`${where} (expected 403)`);
              if (String(res.headers['set-cookie'] ?? '').includes('tp_refresh='))
                failures.push(`${where} set a cookie`);
            }
          }
      }
      expect(failures).toEqual([]);
    },
  );
});
