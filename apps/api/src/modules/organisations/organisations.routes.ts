/**
 * Routes of the organiser side (issue 12):
 * - `/admin/organisations...` (`Authorization: Bearer <ADMIN_KEY>`): create an organisation, rotate, list and
 *   revoke its API keys;
 * - `/org/...` (`Authorization: Bearer <apiKey>`): upsert events, ticket types and tickets by the organiser's own
 *   ids, revoke a ticket, import tickets from CSV, read an event's attendance.
 * Registered as their own plugin so the `text/csv` body parser (a stream, parsed by ticket-import.csv.ts) is theirs.
 */
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import * as z from 'zod';
import { organisations as contract } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { RequireOrganisation } from './org-auth.js';
import { errors, media, securityOf } from '../../lib/openapi.js';
import { pickLang } from '../../lib/lang.js';
import type { AdminService } from './admin.service.js';
import type { OrgApiService } from './org-api.service.js';
import { parseTicketImport } from './ticket-import.csv.js';
import { AppError } from '../../lib/app-error.js';
import { PGLITE_IMPORT_MAX_ROWS } from '../../config.js';

const adminSecurity = securityOf('adminKey');
const orgSecurity = securityOf('organisationApiKey');

export function organisationsRoutes(
  app: App,
  deps: { admin: AdminService; org: OrgApiService; requireAdmin: PreHandler; requireOrganisation: RequireOrganisation },
) {
  const admin = { preHandler: deps.requireAdmin };
  // Events, ticket types, tickets, imports, attendance: owners and staff (contract ORG_AREA_ROLES).
  const org = { preHandler: deps.requireOrganisation('events') };

  app.post(
    '/admin/organisations',
    {
      ...admin,
      schema: {
        operationId: 'createOrganisation',
        summary: 'Create an organisation and its first API key (shown once)',
        security: adminSecurity,
        body: contract.createOrganisationRequest,
        response: { 201: contract.createOrganisationResponse, ...errors(401, 409) },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.admin.createOrganisation(req.body, req.auditActor)),
  );
  app.post(
    '/admin/organisations/:id/api-keys',
    {
      ...admin,
      schema: {
        operationId: 'rotateApiKey',
        summary: 'Rotate: a new API key; the previous keys keep working one hour',
        security: adminSecurity,
        params: contract.organisationParams,
        response: { 201: contract.rotateApiKeyResponse, ...errors(401, 404) },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.admin.rotateKey(req.params.id, req.auditActor)),
  );
  app.get(
    '/admin/organisations/:id/api-keys',
    {
      ...admin,
      schema: {
        operationId: 'listApiKeys',
        summary: "An organisation's API keys (prefix and dates, never the key)",
        security: adminSecurity,
        params: contract.organisationParams,
        response: { 200: z.array(contract.apiKeyItem), ...errors(401, 404) },
      },
    },
    async (req) => deps.admin.listKeys(req.params.id),
  );
  app.delete(
    '/admin/organisations/:id/api-keys/:keyId',
    {
      ...admin,
      schema: {
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key at once',
        security: adminSecurity,
        params: contract.apiKeyParams,
        response: { 204: z.null(), ...errors(401, 404) },
      },
    },
    async (req, reply) => {
      await deps.admin.revokeKey(req.params.id, req.params.keyId, req.auditActor);
      return reply.code(204).send(null);
    },
  );

  // The organisation's own API keys, from the console: owners only (contract ORG_AREA_ROLES).
  const owner = { preHandler: deps.requireOrganisation('owner') };
  app.post(
    '/org/api-keys',
    {
      ...owner,
      schema: {
        operationId: 'createOrgApiKey',
        summary: 'A new API key for your machines (shown once); your other keys keep working',
        security: orgSecurity,
        response: { 201: contract.createApiKeyResponse, ...errors(401) },
      },
    },
    async (req, reply) => reply.code(201).send(await deps.admin.createKey(req.organisation.id, req.auditActor)),
  );
  app.get(
    '/org/api-keys',
    {
      ...owner,
      schema: {
        operationId: 'listOrgApiKeys',
        summary: 'Your API keys (prefix and dates, never the key)',
        security: orgSecurity,
        response: { 200: z.array(contract.apiKeyItem), ...errors(401) },
      },
    },
    async (req) => deps.admin.listKeys(req.organisation.id),
  );
  app.delete(
    '/org/api-keys/:id',
    {
      ...owner,
      schema: {
        operationId: 'revokeOrgApiKey',
        summary: 'Revoke one of your API keys at once',
        security: orgSecurity,
        params: contract.orgApiKeyParams,
        response: { 204: z.null(), ...errors(401, 404) },
      },
    },
    async (req, reply) => {
      await deps.admin.revokeKey(req.organisation.id, req.params.id, req.auditActor);
      return reply.code(204).send(null);
    },
  );

  const upserted = { 200: contract.upsertResponse, 201: contract.upsertResponse };
  app.put(
    '/org/events/:externalId',
    {
      ...org,
      schema: {
        operationId: 'upsertEvent',
        summary: 'Create or update an event by your own id',
        security: orgSecurity,
        params: contract.externalIdParams,
        body: contract.eventUpsertRequest,
        response: { ...upserted, ...errors(400, 401) },
      },
    },
    async (req, reply) => {
      const status = await deps.org.upsertEvent(req.organisation, req.params.externalId, req.body);
      return reply.code(status === 'created' ? 201 : 200).send({ externalId: req.params.externalId, status });
    },
  );
  app.put(
    '/org/ticket-types/:externalId',
    {
      ...org,
      schema: {
        operationId: 'upsertTicketType',
        summary: 'Create or update a ticket type (and its benefits) by your own id',
        security: orgSecurity,
        params: contract.externalIdParams,
        body: contract.ticketTypeUpsertRequest,
        response: { ...upserted, ...errors(400, 401, 404, 409, 422) },
      },
    },
    async (req, reply) => {
      const status = await deps.org.upsertTicketType(req.organisation, req.params.externalId, req.body);
      return reply.code(status === 'created' ? 201 : 200).send({ externalId: req.params.externalId, status });
    },
  );
  app.put(
    '/org/tickets/:externalId',
    {
      ...org,
      schema: {
        operationId: 'upsertTicket',
        summary: 'Issue a ticket to a holder by e-mail (the same PUT again changes nothing)',
        description:
          "Creates the account when needed (in `holderLanguage`, en or es, default en) and e-mails the holder in their account's language. Another holderEmail re-issues the ticket only while it is still with the account it was issued to, unused, not listed for resale and not revoked (409 api.org.ticket_moved, api.org.ticket_used, api.org.ticket_in_resale, api.org.ticket_revoked); another ticket type is refused (409 api.org.ticket_type_locked).",
        security: orgSecurity,
        params: contract.externalIdParams,
        body: contract.ticketUpsertRequest,
        response: { ...upserted, ...errors(400, 401, 404, 409) },
      },
    },
    async (req, reply) => {
      const status = await deps.org.upsertTicket(req.organisation, { externalId: req.params.externalId, ...req.body });
      return reply.code(status === 'created' ? 201 : 200).send({ externalId: req.params.externalId, status });
    },
  );
  app.delete(
    '/org/tickets/:externalId',
    {
      ...org,
      schema: {
        operationId: 'revokeTicket',
        summary: "Revoke a ticket: it leaves the holder's lists and no longer admits",
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 204: z.null(), ...errors(401, 404, 409) },
      },
    },
    async (req, reply) => {
      await deps.org.revokeTicket(req.organisation, req.params.externalId);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/org/tickets/import',
    {
      ...org,
      schema: {
        operationId: 'getImportLimits',
        summary: 'What one CSV import takes on this instance: data rows and bytes',
        description: `\`maxRows\`: ${contract.IMPORT_MAX_ROWS} on PostgreSQL, \`PGLITE_IMPORT_MAX_ROWS\` (default ${PGLITE_IMPORT_MAX_ROWS}) on the embedded database; \`maxBytes\`: ${contract.IMPORT_MAX_BYTES}. A larger file is refused with 413.`,
        security: orgSecurity,
        response: { 200: contract.importLimitsResponse, ...errors(401) },
      },
    },
    () => Promise.resolve(deps.org.importLimits()),
  );
  app.post(
    '/org/tickets/import',
    {
      ...org,
      // Refused on the header, before the body is parsed or read (and before a parser of another type, or none,
      // answers for it): one key naming the type this route takes (issue 41, point 10).
      onRequest: (req) =>
        isCsv(req.headers['content-type']) ? Promise.resolve() : Promise.reject(new AppError('api.org.import.not_csv')),
      schema: {
        operationId: 'importTickets',
        summary: 'Issue tickets from a CSV file, all or nothing',
        description: `Body \`text/csv\` with the header row \`externalId,ticketTypeExternalId,holderEmail\` (any order; other columns ignored; an optional \`holderLanguage\` column, en or es, sets the language of the accounts rows create), at most ${contract.IMPORT_MAX_ROWS} rows (an instance on the embedded database takes fewer, \`PGLITE_IMPORT_MAX_ROWS\`, default ${PGLITE_IMPORT_MAX_ROWS}: the 413's \`detail\` names the limit) and ${contract.IMPORT_MAX_BYTES} bytes. Each row is a PUT /org/tickets/{externalId}. Any bad row: 422 with \`errors: [{ row, message, field? }]\` (row numbers as a spreadsheet shows them, the header is row 1) and nothing written. \`?dryRun=true\` checks without writing.`,
        security: orgSecurity,
        querystring: contract.importQuery,
        requestBody: {
          content: {
            'text/csv': {
              schema: z.string().meta({
                description:
                  'The CSV file itself (UTF-8 or UTF-16), header row first; send it as it is, not JSON-encoded',
              }),
            },
          },
        },
        response: {
          200: contract.importResponse,
          400: contract.importRefusedResponse,
          ...errors(401, 409, 413, 415),
          422: contract.importErrorResponse,
        },
      },
    },
    async (req) => {
      const parsed = await parseTicketImport(req.body as Readable, deps.org.importMaxRows);
      const dryRun = req.query.dryRun === 'true';
      const outcome = await deps.org.importTickets(
        req.organisation,
        parsed.rows,
        parsed.errors,
        dryRun,
        parsed.refusedTypes,
      );
      if ('errors' in outcome)
        throw new AppError('api.org.import.invalid_rows', {
          errors: outcome.errors.slice(0, contract.IMPORT_MAX_ERRORS),
        });
      return outcome.result;
    },
  );
  app.get(
    '/org/organisation',
    {
      preHandler: deps.requireOrganisation('read'),
      schema: {
        operationId: 'getOrganisation',
        summary: "Your organisation's brand: name, logo, colour and links",
        security: orgSecurity,
        response: { 200: contract.organisationItem, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.getOrganisation(req.organisation),
  );
  app.patch(
    '/org/organisation',
    {
      preHandler: deps.requireOrganisation('owner'),
      schema: {
        operationId: 'updateOrganisation',
        summary: "Change your organisation's brand (the panel shows it within a minute)",
        description:
          'Only the fields given change; `null` clears a link, the logo or the colour. URLs must be https; the colour `#rrggbb` (the panel adjusts its contrast per theme).',
        security: orgSecurity,
        body: contract.updateOrganisationRequest,
        response: { 200: contract.organisationItem, ...errors(400, 401, 404) },
      },
    },
    async (req) => deps.org.updateOrganisation(req.organisation, req.body),
  );
  app.get(
    '/org/events',
    {
      ...org,
      schema: {
        operationId: 'listOrgEvents',
        summary: "The organisation's events, upcoming (soonest first) or past (latest first), paged by cursor",
        security: orgSecurity,
        querystring: contract.eventListQuery,
        response: { 200: contract.eventPage, ...errors(400, 401) },
      },
    },
    async (req) => deps.org.listEvents(req.organisation, req.query),
  );
  app.get(
    '/org/events/:externalId',
    {
      ...org,
      schema: {
        operationId: 'getOrgEvent',
        summary: 'One event by your own id',
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 200: contract.eventItem, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.getEvent(req.organisation, req.params.externalId),
  );
  app.get(
    '/org/events/:externalId/attendees.csv',
    {
      ...org,
      schema: {
        operationId: 'exportAttendees',
        summary: "An event's tickets and their current holders as CSV (streamed)",
        description:
          "UTF-8 with a BOM, CRLF line ends; columns ticket, ticket type, status, holder e-mail, holder name, checked-in and revoked times (ISO 8601 UTC); headers in English or Spanish by `Accept-Language`, and so is the status (English: the API's status values; Spanish: Emitida, Regalada, En reventa, Revendida, Validada, Anulada). Cells starting with `=`, `+`, `-`, `@`, tab or CR are prefixed with `'` so that spreadsheets do not run them as formulas.",
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 200: media('text/csv', z.string(), 'The CSV file, as an attachment'), ...errors(401, 404) },
      },
    },
    async (req, reply) => {
      const lang = pickLang(undefined, req.headers['accept-language']);
      const { stream, fileName } = await deps.org.attendeesCsv(req.organisation, req.params.externalId, lang);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${fileName}"`)
        .header('Content-Language', lang)
        .header('Cache-Control', 'no-store')
        .send(stream);
    },
  );
  app.get(
    '/org/ticket-types',
    {
      ...org,
      schema: {
        operationId: 'listOrgTicketTypes',
        summary: "An event's ticket types, paged by cursor",
        security: orgSecurity,
        querystring: contract.ticketTypeListQuery,
        response: { 200: contract.ticketTypePage, ...errors(400, 401, 404) },
      },
    },
    async (req) => deps.org.listTicketTypes(req.organisation, req.query),
  );
  app.get(
    '/org/tickets',
    {
      ...org,
      schema: {
        operationId: 'listOrgTickets',
        summary: 'Tickets with their current holder, by event, status and search, paged by cursor',
        description:
          "`search` matches the start of the current holder's e-mail, given or family name or full name (case-insensitive), or of the ticket's externalId; `%` and `_` are plain characters.",
        security: orgSecurity,
        querystring: contract.ticketListQuery,
        response: { 200: contract.ticketPage, ...errors(400, 401, 404) },
      },
    },
    async (req) => deps.org.listTickets(req.organisation, req.query),
  );
  app.get(
    '/org/tickets/:externalId',
    {
      ...org,
      schema: {
        operationId: 'getOrgTicket',
        summary: 'One ticket, its current holder and its history',
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 200: contract.ticketDetail, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.getTicket(req.organisation, req.params.externalId),
  );
  app.get(
    '/org/events/:externalId/attendance',
    {
      ...org,
      schema: {
        operationId: 'getAttendance',
        summary: "An event's attendance over its live tickets",
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 200: contract.attendanceResponse, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.attendance(req.organisation, req.params.externalId),
  );
  app.post(
    '/org/tickets/:externalId/resend',
    {
      ...org,
      // Per ticket, after the organisation is known: a mis-click or a script cannot flood one holder's inbox.
      config: {
        rateLimit: {
          max: contract.TICKET_RESENDS_PER_HOUR,
          timeWindow: '1 hour',
          hook: 'preHandler' as const,
          keyGenerator: (req: FastifyRequest) =>
            `resend:${req.organisation.id}:${(req.params as { externalId: string }).externalId}`,
        },
      },
      schema: {
        operationId: 'resendTicketMail',
        summary: "E-mail the ticket's current holder their ticket again",
        description: `At most ${contract.TICKET_RESENDS_PER_HOUR} times an hour per ticket (then 429).`,
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 202: contract.resendTicketResponse, ...errors(401, 404, 409, 429) },
      },
    },
    async (req, reply) =>
      reply.code(202).send(await deps.org.resendTicketMail(req.organisation, req.params.externalId)),
  );
  app.get(
    '/org/events/:externalId/check-ins',
    {
      ...org,
      schema: {
        operationId: 'getCheckIns',
        summary: "An event's check-ins per 5 minutes on the event day and its offline-door conflicts",
        security: orgSecurity,
        params: contract.externalIdParams,
        response: { 200: contract.checkInsResponse, ...errors(401, 404) },
      },
    },
    async (req) => deps.org.checkIns(req.organisation, req.params.externalId),
  );
}

/** Whether a Content-Type header names `text/csv` (any parameters, any case). */
const isCsv = (type: string | undefined) => type?.split(';')[0].trim().toLowerCase() === 'text/csv';

/** The raw request stream as the body of `text/csv` requests (parsed by the import route as it streams). */
export function registerCsvBody(app: App) {
  app.addContentTypeParser('text/csv', (_req, payload, done) => done(null, payload));
}
