/**
 * The API document (`GET /v1/openapi.json`, OpenAPI 3.1) made from the same zod schemas the routes validate and
 * serialise with (issue 28). Routes declare their body, answers, route-specific errors (`errors(404, 409)`),
 * `operationId` and `summary`; `describeRoute` (an `onRoute` hook) adds what follows from how a route is built:
 * - the credential: `security` (holder bearer, door key, organiser key, platform key; `[]` when public) and the
 *   tag by audience (`holder`, `door`, `organiser`, `platform`);
 * - the errors every route of its kind can answer, with the one error schema (`Error`): 400 when it validates
 *   input, 400/413/415 when it reads a body, 401 with a credential, 404 for the holder's `X-Organisation`, 429 with
 *   a rate limit or an organiser, platform or door key (their checks are limited), 500 and 503 (database unreachable,
 *   or load shedding) for all.
 * `transformDocument` then drops the content of 204 and 304 answers and adds the `webhooks` of every event.
 * Drift is caught by the integration tests, whose every answer is validated against this document
 * (apps/api/test/openapi-conformance.ts).
 */
import type { RouteOptions } from 'fastify';
import * as z from 'zod';
import { auth, webhooks } from '@tp/contract';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** The audiences the document's tags name: who calls an operation. */
export const AUDIENCES = {
  holder: 'The ticket holder: the panel, with the bearer token of an e-mail sign-in (or public)',
  door: 'The door scanner, with the door key (`x-scanner-key`)',
  organiser: "An organisation's own systems, with its API key",
  platform: 'The operator of this service, with ADMIN_KEY',
} as const;
export type Audience = keyof typeof AUDIENCES;

/** Security schemes, one per credential. */
export const SECURITY_SCHEMES = {
  holderBearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "The holder's access token (`accessToken` of POST /v1/auth/verifyLoginRequest or /v1/auth/refresh)",
  },
  doorKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-scanner-key',
    description:
      "A door key of an organisation (POST /v1/org/door-keys: its events only) or the platform's SCANNER_KEY",
  },
  organisationApiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      "An organisation's API key (`tpk_…`, acts as an owner) or a member's console token (POST /v1/console/session, with the member's role)",
  },
  adminKey: { type: 'http', scheme: 'bearer', description: 'The platform key (ADMIN_KEY)' },
  applePass: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description:
      "Apple Wallet's pass update web service: `Authorization: ApplePass <authenticationToken>`, the token inside the pass (`pass.json`)",
  },
} as const;
type SchemeName = keyof typeof SECURITY_SCHEMES;
const AUDIENCE_OF: Record<SchemeName, Audience> = {
  holderBearer: 'holder',
  doorKey: 'door',
  organisationApiKey: 'organiser',
  adminKey: 'platform',
  // Apple Wallet on the holder's device, with the token of the holder's pass.
  applePass: 'holder',
};

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The request body as the document shows it, for a route that reads its body itself (a `text/csv` stream, a
     * multipart upload) and so declares no `body` for Fastify to validate: one zod schema per content type.
     * Documentation only; `transformRoute` turns it into the operation's `requestBody`.
     */
    requestBody?: { description?: string; content: Record<string, { schema: z.ZodType }> };
  }
}

/** `security` of an operation that needs `scheme`. */
export const securityOf = (scheme: SchemeName) => [{ [scheme]: [] as string[] }];

/** What an error status means, as the document's response descriptions say it. */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (`api.invalid_request_body` with `fields`, or a rule of the operation)',
  401: 'Missing or wrong credential',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflicts with the current state',
  413: 'Body too large',
  415: 'Unsupported content type',
  422: 'Well-formed but refused',
  429: 'Too many requests (see Retry-After where sent)',
  500: 'Internal error (the body names no internals)',
  503: 'A dependency (the database) is unreachable for a moment, or the instance is too busy (`api.busy`, load shedding); retry after `Retry-After` seconds',
};

/** The error answers `statuses`, each with the shared `Error` body: `response: { 200: x, ...errors(404, 409) }`. */
export function errors<S extends number>(...statuses: S[]): Record<S, typeof auth.errorBody> {
  return Object.fromEntries(statuses.map((s) => [s, auth.errorBody])) as Record<S, typeof auth.errorBody>;
}

/**
 * A non-JSON answer for the document and Fastify alike: `{ 200: media('text/plain', z.string()) }`. Fastify
 * sends such a payload as it is (a string or Buffer with its own content type); the document says the type.
 */
export function media(contentType: string, schema: z.ZodType, description?: string) {
  return { description, content: { [contentType]: { schema } } };
}

/** camelCase operationId made from the method and path, for a /v1 route that names none. */
export function derivedOperationId(method: string, url: string): string {
  const words = url
    .replace(/^\/v1\//, '')
    .split(/[/_-]+/)
    .filter(Boolean)
    .map((w) => (w.startsWith(':') ? `by ${w.slice(1)}` : w))
    .join(' ')
    .split(' ');
  const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);
  return method.toLowerCase() + words.map(cap).join('');
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
type Schema = Record<string, unknown> & {
  response?: Record<string | number, unknown>;
  security?: Record<string, string[]>[];
};

/** The description every step-up route (issue 47) ends with. */
const STEP_UP_NOTE =
  'Needs a proof of presence from the last STEP_UP_MAX_AGE_SECONDS (default 300): the sign-in, or a step-up code ' +
  '(`POST /v1/auth/step-up`, then `POST /v1/auth/step-up/verify`). Without one: 403 `api.auth.step_up_required` ' +
  'with the `action` to name in the step-up request.';
/** What an organiser step-up route (decision 048, the console) adds to {@link STEP_UP_NOTE}. */
const ORGANISER_STEP_UP_NOTE =
  'With a console token, the proof is that of the holder sign-in the token was opened from (the step-up calls take ' +
  'its holder token); an organisation API key is never asked.';

/**
 * `onRoute` hook body: completes the schema of a documented /v1 route (see the module comment). `holder` is the
 * holder's pre-handler (`requireAuth`); its routes also take the `X-Organisation` header (`holderHeaders`).
 */
export function describeRoute(route: RouteOptions, opts: { holder: unknown; holderHeaders: z.ZodType }): void {
  if (!route.url.startsWith('/v1/')) return;
  const schema: Schema = { ...(route.schema as Schema | undefined) };
  if (schema.hide) return;
  // A rate limit on the preHandler hook (perUserPerMinute) has already made the preHandler an array.
  const isHolder = ([] as unknown[]).concat(route.preHandler).includes(opts.holder);
  if (isHolder) {
    schema.headers = opts.holderHeaders;
    schema.security ??= securityOf('holderBearer');
  }
  const security = schema.security ?? [];
  schema.security = security;
  const scheme = Object.keys(security[0] ?? {})[0] as SchemeName | undefined;
  schema.tags = [scheme ? AUDIENCE_OF[scheme] : 'holder'];
  const methods = ([] as string[]).concat(route.method);
  schema.operationId ??= derivedOperationId(methods[0], route.url);

  const response: Record<string | number, unknown> = { ...schema.response };
  const add = (...statuses: number[]) => {
    for (const s of statuses) response[s] ??= auth.errorBody;
  };
  // Any request may be refused 400: a NUL in a header or query field (lib/nul-guard.ts) besides its own schemas.
  add(400);
  if (methods.some((m) => BODY_METHODS.has(m))) add(400, 413, 415);
  if (security.length) add(401);
  // A member's role outside the route's area (issue 21).
  if (scheme === 'organisationApiKey') add(403);
  if (isHolder) add(404);
  const config = route.config as { rateLimit?: unknown; stepUp?: string } | undefined;
  // A route that moves a ticket or money (issue 47): 403 without a fresh proof of presence, said in its description.
  if (config?.stepUp) {
    add(403);
    const before = typeof schema.description === 'string' ? `${schema.description}\n\n` : '';
    schema.description = `${before}${STEP_UP_NOTE}${scheme === 'organisationApiKey' ? ` ${ORGANISER_STEP_UP_NOTE}` : ''}`;
  }
  // Organiser, platform and door keys are limited where they are checked (wrong keys per IP, requests per
  // organisation: issue 19), besides any route's own limit.
  if (config?.rateLimit || (scheme && scheme !== 'holderBearer')) add(429);
  add(500, 503);
  schema.response = response;
  route.schema = schema;
}

/**
 * `transform` of @fastify/swagger: the zod type provider's, plus answers declared with `media()` (their zod
 * schemas converted here, since the provider's transform takes only a zod schema per status) and a documented
 * `requestBody` (a route that reads its body itself: the CSV import, the avatar upload; issue 41, point 10).
 */
export const transformRoute: typeof jsonSchemaTransform = (input) => {
  const requestBody = (input.schema as { requestBody?: { content: Record<string, { schema: z.ZodType }> } })
    ?.requestBody;
  if (!requestBody) return transformResponses(input);
  const { requestBody: _documented, ...schema } = input.schema as Record<string, unknown>;
  const out = transformResponses({ ...input, schema });
  // @fastify/swagger makes a `body` with `content` into the operation's requestBody, one entry per content type.
  const body = {
    content: Object.fromEntries(
      Object.entries(requestBody.content).map(([type, c]) => [type, { schema: jsonSchema(c.schema) }]),
    ),
  };
  return { ...out, schema: { ...(out.schema as Schema), body } };
};

/** `transformRoute` of a route without a documented `requestBody`. */
const transformResponses: typeof jsonSchemaTransform = (input) => {
  const response = input.schema?.response as Record<string, unknown> | undefined;
  const media: Record<string, { description?: string; content: Record<string, { schema: z.ZodType }> }> = {};
  if (response) {
    for (const [status, value] of Object.entries(response)) {
      if (value && typeof value === 'object' && 'content' in value) media[status] = value as (typeof media)[string];
    }
  }
  if (!Object.keys(media).length) return jsonSchemaTransform(input);
  const rest = Object.fromEntries(Object.entries(response!).filter(([s]) => !(s in media)));
  const out = jsonSchemaTransform({ ...input, schema: { ...input.schema, response: rest } });
  const converted = Object.fromEntries(
    Object.entries(media).map(([status, m]) => [
      status,
      {
        description: m.description,
        content: Object.fromEntries(
          Object.entries(m.content).map(([type, c]) => [type, { schema: jsonSchema(c.schema) }]),
        ),
      },
    ]),
  );
  const schema = out.schema as Schema;
  return { ...out, schema: { ...schema, response: { ...schema.response, ...converted } } };
};

type Document = ReturnType<typeof jsonSchemaTransformObject>;
type Operation = { responses?: Record<string, { description?: string; content?: unknown }> };

/**
 * `transformObject` of @fastify/swagger: the zod registry's components (`Error`), then: 204 answers without
 * content, error answers described, and the `webhooks` of every event (OpenAPI 3.1) from the contract's schemas
 * with the Standard Webhooks headers.
 */
export const transformDocument = (input: Parameters<typeof jsonSchemaTransformObject>[0]): Document => {
  const document = jsonSchemaTransformObject(input) as Document & { webhooks?: unknown };
  const paths = (document as { paths?: Record<string, Record<string, Operation>> }).paths;
  for (const item of Object.values(paths ?? {})) {
    for (const operation of Object.values(item)) {
      for (const [status, answer] of Object.entries(operation.responses ?? {})) {
        if (status === '204' || status === '304') {
          delete answer.content;
          answer.description =
            status === '204' ? 'Done; no content' : 'Not modified since If-Modified-Since; no content';
        } else if (answer.description === 'Default Response') {
          answer.description = ERROR_DESCRIPTIONS[Number(status)] ?? (Number(status) < 300 ? 'OK' : 'Error');
        }
      }
    }
  }
  // Components as plain schemas of the document (no `$schema`/`$id` of their own); the registry's input twin
  // of `Error` (`ErrorInput`) is never referenced: no request takes an error body.
  const components = (document as { components?: { schemas?: Record<string, Record<string, unknown>> } }).components;
  const schemas = components?.schemas ?? {};
  delete schemas.ErrorInput;
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  document.webhooks = webhookItems();
  return document;
};

/** A zod schema as a JSON Schema object of the document (2020-12, as OpenAPI 3.1 takes it). */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'output' });
  return rest;
}

/** One `webhooks` entry per event type: the POST we send to a subscribed URL. */
function webhookItems() {
  const headers = Object.entries(webhooks.WEBHOOK_HEADERS).map(([name, description]) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  }));
  return Object.fromEntries(
    webhooks.WEBHOOK_EVENT_TYPES.map((type) => {
      const camel = type.replace(/[._](\w)/g, (_m, c: string) => c.toUpperCase());
      return [
        type,
        {
          post: {
            operationId: `${camel}Webhook`,
            summary: webhooks.WEBHOOK_EVENT_SUMMARIES[type],
            description:
              'Sent to each endpoint subscribed to this event (POST /v1/org/webhooks), signed per Standard Webhooks; ' +
              'answer any 2xx within the timeout, anything else is retried with backoff.',
            tags: ['organiser'],
            security: [],
            parameters: headers,
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: jsonSchema(webhooks.webhookEventPayload(type)),
                },
              },
            },
            responses: {
              '200': { description: 'Received (any 2xx)' },
              default: { description: 'Not received: the delivery is retried' },
            },
          },
        },
      ];
    }),
  );
}
