/**
 * The app's plugins, registered before any route: security headers, compression, rate limits (shared through
 * Redis when REDIS_URL is set), cookies, multipart, and the OpenAPI document.
 */
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifySwagger from '@fastify/swagger';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyMultipart from '@fastify/multipart';
import fastifyCookie from '@fastify/cookie';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { AUDIENCES, SECURITY_SCHEMES, describeRoute, transformDocument, transformRoute } from '../lib/openapi.js';
import { AVATAR_MAX_BYTES, branding as brandingContract } from '@tp/contract';
import type { Config } from '../config.js';
import type { App, PreHandler } from '../lib/http.js';
import { connectRedis, ipKey, rateLimitStore } from '../lib/rate-limit.js';
import { registerSecurityHeaders } from '../lib/security-headers.js';

/**
 * Registers the plugins on `app`.
 * @param requireAuth the holder routes' pre-handler: their OpenAPI entries get the X-Organisation header
 * @param requireStepUp the pre-handler added after `requireAuth` (or an organiser route's `requireOrganisation`) to
 *   each route with `config.stepUp` (issue 47)
 * @returns the Redis client of the rate limits (null without REDIS_URL); the caller waits for it and closes it
 */
export async function registerPlugins(app: App, config: Config, requireAuth: PreHandler, requireStepUp: PreHandler) {
  registerSecurityHeaders(app, config);
  // Answers made per request (the panel document with its nonce, JSON) go out brotli/gzip-compressed from
  // 512 bytes (issue 9: the LOGIN screen's document and /v1/config); built files carry their own .br/.gz.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 512,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  // Limits shared through Redis when REDIS_URL is set (decision 005), else counted in this process.
  app.decorate('rateLimitIpv6Prefix', config.rateLimitIpv6Prefix);
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, (msg) => app.log.warn(msg)) : null;
  await app.register(fastifyRateLimit, {
    global: false,
    store: rateLimitStore(redis),
    keyGenerator: ipKey,
    errorResponseBuilder: (_req, ctx) => ({ statusCode: 429, message: 'api.too_many_requests', retryAfter: ctx.after }),
  });
  // Sets the refresh cookie of the embedded panel (decision 012); no signed cookies. `hook: false`: no request's
  // cookies are parsed up front (about 3 µs of every answer, decision 028); the refresh route parses its own.
  await app.register(fastifyCookie, { hook: false });
  await app.register(fastifyMultipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } });
  // The API document (issue 28): OpenAPI 3.1 from the routes' zod schemas, completed by lib/openapi.ts.
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ticket panel API',
        version: '1.0.0',
        description:
          'The /v1 API of the ticket panel: the holder panel, the door scanner, the organiser API and the platform ' +
          'admin. Every error answer is `{ "message": key }` (schema `Error`).',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: config.publicUrl }],
      tags: Object.entries(AUDIENCES).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: transformRoute,
    transformObject: transformDocument,
  });
  // The API reference at /docs (issue 28, decision 016): Swagger UI from the package's own files (no CDN), under
  // the `page` CSP like any other page (scripts and styles from this origin); it reads /docs/json.
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { deepLinking: true, validatorUrl: null, tryItOutEnabled: false },
    theme: { title: 'Ticket panel API reference' },
  });
  // Every /v1 route: credential, audience tag and the errors its kind can answer (lib/openapi.ts); every holder
  // route (requireAuth) documents and accepts X-Organisation (issue 12), in this one place.
  // A route that moves a ticket or money (`config.stepUp`, issue 47) checks the proof of presence after requireAuth,
  // or on /v1/org/ (every route of the organiser scope has its requireOrganisation) after that.
  app.addHook('onRoute', (route) => {
    if (route.config?.stepUp) {
      const pre = ([] as unknown[]).concat(route.preHandler ?? []);
      if (!pre.includes(requireAuth) && !route.url.startsWith('/v1/org/'))
        throw new Error(`${route.url}: config.stepUp needs requireAuth or an organiser route`);
      route.preHandler = [...pre, requireStepUp] as typeof route.preHandler;
    }
    describeRoute(route, { holder: requireAuth, holderHeaders: brandingContract.holderHeaders });
  });

  return { redis };
}
