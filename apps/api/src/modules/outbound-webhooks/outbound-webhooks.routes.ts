/**
 * Routes of the organisation webhooks (issue 12), under `/v1/org/webhooks` with the organisation API key:
 * create (`{ url, events }` → `{ id, secret }`), list, delete, the delivery log (paged, newest first) and
 * redelivery (`POST …/deliveries/{deliveryId}/redeliver`).
 */
import * as z from 'zod';
import { webhooks as contract } from '@tp/contract';
import type { App } from '../../lib/http.js';
import type { RequireOrganisation } from '../organiser-scope/org-auth.js';
import { errors, securityOf } from '../../lib/openapi.js';
import type { OutboundWebhooksService } from './outbound-webhooks.service.js';

const security = securityOf('organisationApiKey');

export function outboundWebhooksRoutes(
  app: App,
  deps: { outboundWebhooks: OutboundWebhooksService; requireOrganisation: RequireOrganisation },
) {
  const preHandler = deps.requireOrganisation('events');
  app.post(
    '/org/webhooks',
    {
      preHandler,
      schema: {
        operationId: 'createWebhook',
        summary: 'Subscribe a URL to ticket events; the signing secret is shown once',
        security,
        body: contract.createWebhookRequest,
        response: { 201: contract.createWebhookResponse, ...errors(400, 401, 409, 422) },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.outboundWebhooks.create(req.organisation, req.body)),
  );
  app.get(
    '/org/webhooks',
    {
      preHandler,
      schema: {
        operationId: 'listWebhooks',
        summary: 'Your webhook endpoints',
        security,
        response: { 200: z.array(contract.webhookItem), ...errors(401) },
      },
    },
    async (req) => deps.outboundWebhooks.list(req.organisation),
  );
  app.delete(
    '/org/webhooks/:id',
    {
      preHandler,
      schema: {
        operationId: 'deleteWebhook',
        summary: 'Delete a webhook endpoint and its delivery log',
        security,
        params: contract.webhookParams,
        response: { 204: z.null(), ...errors(401, 404) },
      },
    },
    async (req, reply) => {
      await deps.outboundWebhooks.remove(req.organisation, req.params.id);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/org/webhooks/:id/deliveries',
    {
      preHandler,
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'Delivery log, newest first, with each attempt (page with `cursor` = the previous `nextCursor`)',
        security,
        params: contract.webhookParams,
        querystring: contract.deliveriesQuery,
        response: { 200: contract.deliveriesPage, ...errors(400, 401, 404) },
      },
    },
    async (req) => deps.outboundWebhooks.deliveries(req.organisation, req.params.id, req.query),
  );
  app.post(
    '/org/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      preHandler,
      schema: {
        operationId: 'redeliverWebhook',
        summary: 'Send a delivery again (same webhook-id and body), as a new delivery due now',
        security,
        params: contract.deliveryParams,
        response: { 202: contract.redeliverResponse, ...errors(401, 404) },
      },
    },
    async (req, reply) =>
      reply
        .code(202)
        .send(await deps.outboundWebhooks.redeliver(req.organisation, req.params.id, req.params.deliveryId)),
  );
}
