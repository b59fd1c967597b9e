/**
 * Routes of the CSV import of tickets (issues 12, 41, 44), `/v1/org/tickets/import`: what one import takes, and the
 * import itself (body `text/csv`, streamed into ticket-import.csv.ts; all or nothing): at once for a small file, in
 * the background for one over `IMPORT_BACKGROUND_ROWS` rows (202, followed at `/v1/org/imports/{importId}`;
 * decision 040). Owners and staff (area `events`). The `text/csv` body parser is registered on the organiser scope
 * by {@link registerCsvBody}.
 */
import type { Readable } from 'node:stream';
import { organisations as contract } from '@tp/contract';
import type { App } from '../../../lib/http.js';
import { errors } from '../../../lib/openapi.js';
import { AppError } from '../../../lib/app-error.js';
import { IMPORT_BACKGROUND_ROWS } from '../../../config.js';
import { parseTicketImport } from '../ticket-import.csv.js';
import { orgSecurity, type OrgRoutesDeps } from './route-parts.js';

/** Registers GET and POST `/org/tickets/import` and GET `/org/imports/{importId}`. */
export function ticketImportRoutes(app: App, deps: OrgRoutesDeps) {
  const org = { preHandler: deps.requireOrganisation('events') };
  app.get(
    '/org/tickets/import',
    {
      ...org,
      schema: {
        operationId: 'getImportLimits',
        summary: 'What one CSV import takes on this instance: data rows and bytes',
        description: `\`maxRows\`: ${contract.IMPORT_MAX_ROWS}; \`maxBytes\`: ${contract.IMPORT_MAX_BYTES}. A larger file is refused with 413. \`backgroundRows\`: a file of more data rows is imported in the background (\`IMPORT_BACKGROUND_ROWS\`, default ${IMPORT_BACKGROUND_ROWS}).`,
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
        summary: 'Issue tickets from a CSV file, all or nothing (a large file in the background: 202)',
        security: orgSecurity,
        querystring: contract.importQuery,
        requestBody: {
          content: {
            'text/csv': {
              schema: contract.importCsvBody(IMPORT_BACKGROUND_ROWS),
            },
          },
        },
        response: {
          200: contract.importResponse,
          202: contract.importAcceptedResponse,
          400: contract.importRefusedResponse,
          409: contract.importInProgressResponse,
          ...errors(401, 413, 415),
          422: contract.importErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const parsed = await parseTicketImport(req.body as Readable, deps.org.importMaxRows);
      const dryRun = req.query.dryRun === 'true';
      if (!dryRun && !parsed.errors.length && parsed.rows.length > deps.org.importBackgroundRows)
        return reply.code(202).send(await deps.org.startImport(req.organisation, parsed.rows));
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
    '/org/imports/:importId',
    {
      ...org,
      schema: {
        operationId: 'getImport',
        summary: 'Where a background import is: queued, running (rows written so far), done (counts) or failed (rows)',
        security: orgSecurity,
        params: contract.importIdParams,
        response: { 200: contract.importStatusResponse, ...errors(401, 404) },
      },
    },
    (req) => deps.org.importStatus(req.organisation, req.params.importId),
  );
}

/** Whether a Content-Type header names `text/csv` (any parameters, any case). */
const isCsv = (type: string | undefined) => type?.split(';')[0].trim().toLowerCase() === 'text/csv';

/** The raw request stream as the body of `text/csv` requests (parsed by the import route as it streams). */
export function registerCsvBody(app: App) {
  app.addContentTypeParser('text/csv', (_req, payload, done) => done(null, payload));
}
