/**
 * Operational and public routes: /healthz, /readyz, /v1/config, /v1/openapi.json, the dev outbox
 * (/dev/mail).
 */
import { config as configContract, type PanelConfig } from '@tp/contract';
import type { App } from '../../lib/http.js';
import type { MailProvider } from '../../providers/mail/mail.provider.js';
import type { Database } from '../../db/client.js';
import type { PressureReason } from '../../lib/load-shedding.js';
import { renderDevMail } from '../../pages/dev-mail.page.js';

/**
 * GET /healthz (process up: no database, no pressure check, never shed; a liveness probe a busy instance passes)
 * and GET /readyz: 503 `{ status: 'busy', pressure }` with `Retry-After` (seconds) while the instance sheds load
 * (decision 039: `pressure` names the bound, so a load balancer drains a busy instance), else the database reachable:
 * 200 `ok`, or 503 `unavailable`. /readyz also says where rate limits are counted: `shared` (Redis) or `local`
 * (this process: no REDIS_URL, or Redis unreachable).
 */
export function healthRoutes(
  app: App,
  deps: {
    database: Database;
    rateLimits: () => 'shared' | 'local';
    pressure: () => PressureReason | null;
    retryAfterSeconds: number;
  },
) {
  app.get('/healthz', { schema: { hide: true } }, () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    const pressure = deps.pressure();
    if (pressure)
      return reply
        .code(503)
        .header('Retry-After', String(deps.retryAfterSeconds))
        .send({ status: 'busy', pressure, rateLimits: deps.rateLimits() });
    const ok = await deps.database.ping().catch(() => false);
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', rateLimits: deps.rateLimits() });
  });
}

/** GET /dev/mail (HTML) and /dev/mail.json: the dev outbox, only while no SMTP server is configured. */
export function devMailRoutes(app: App, deps: { mail: MailProvider }) {
  app.get('/dev/mail.json', { schema: { hide: true } }, () =>
    deps.mail.outbox().map(({ attachments, ...m }) => ({
      ...m,
      attachments: (attachments ?? []).map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        base64: a.content.toString('base64'),
      })),
    })),
  );
  app.get('/dev/mail', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(renderDevMail(deps.mail.outbox())),
  );
}

/** Routes inside /v1 that are not a module's: the panel config and the OpenAPI document. */
export function v1SystemRoutes(app: App, deps: { panelConfig: () => Promise<PanelConfig> }) {
  app.get(
    '/config',
    {
      schema: {
        operationId: 'getPanelConfig',
        summary: "The panel's configuration (product, organisation, payout and checkout settings)",
        response: { 200: configContract.panelConfig },
      },
    },
    async () => deps.panelConfig(),
  );
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
}
