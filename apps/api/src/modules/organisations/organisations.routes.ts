/**
 * Routes of the organiser side (issue 12), one file per resource (the way fastify/demo lays out a feature):
 * - `/admin/organisations...` (`Authorization: Bearer <ADMIN_KEY>`): admin.routes.ts;
 * - `/org/api-keys` (owners): api-keys.routes.ts;
 * - `/org/...` (an organisation API key or a member's console token), in `org-api/`: events, ticket types,
 *   tickets, the CSV import of tickets and the organisation's brand (`<resource>.routes.ts` beside its service).
 * Registered in the organiser scope (app/v1-routes.ts), whose pre-handlers they take and whose `text/csv` body
 * parser the import reads.
 */
import type { App, PreHandler } from '../../lib/http.js';
import type { RequireOrganisation } from '../organiser-scope/org-auth.js';
import type { AdminService } from './admin.service.js';
import type { OrgApiService } from './org-api.service.js';
import { adminRoutes } from './admin.routes.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { eventsRoutes } from './org-api/events.routes.js';
import { ticketTypesRoutes } from './org-api/ticket-types.routes.js';
import { ticketsRoutes } from './org-api/tickets.routes.js';
import { ticketImportRoutes } from './org-api/ticket-import.routes.js';
import { organisationRoutes } from './org-api/organisation.routes.js';

export { registerCsvBody } from './org-api/ticket-import.routes.js';

/** Registers every route of the organisations module. */
export function organisationsRoutes(
  app: App,
  deps: { admin: AdminService; org: OrgApiService; requireAdmin: PreHandler; requireOrganisation: RequireOrganisation },
) {
  adminRoutes(app, deps);
  apiKeysRoutes(app, deps);
  eventsRoutes(app, deps);
  ticketTypesRoutes(app, deps);
  ticketsRoutes(app, deps);
  ticketImportRoutes(app, deps);
  organisationRoutes(app, deps);
}
