/**
 * The organisation API (issue 12, `/v1/org/*`), composed from its parts by resource (folder `org-api/`):
 * - `events.service.ts`: PUT /org/events/{externalId}, GET /org/events/{externalId}/attendance and /check-ins;
 * - `event-cancel.ts`: POST /org/events/{externalId}/cancel and its run (issue 46);
 * - `ticket-types.service.ts`: PUT /org/ticket-types/{externalId} (with the type's benefits);
 * - `tickets.service.ts`: PUT and DELETE /org/tickets/{externalId};
 * - `ticket-import.service.ts`: POST /org/tickets/import;
 * - `ticket-issuing.ts`: the issuing rules the last two share (plan, then apply);
 * - `reads.service.ts`: GET /org/events, /org/events/{externalId}, /org/ticket-types, /org/tickets and
 *   /org/tickets/{externalId} (issue 21; the tickets' reads and the attendees CSV in `ticket-reads.ts`);
 * - `organisation.service.ts`: GET and PATCH /org/organisation (the brand, issue 21);
 * - `deps.ts`: the dependencies and helpers every part takes.
 * Everything is scoped to the calling organisation: another organisation's ids are not found (404). Upserts are
 * idempotent by the organiser's own ids and say what they did: `created`, `updated` or `unchanged`.
 */
import { createOrgEventsService } from './org-api/events.service.js';
import { createEventCancel } from './org-api/event-cancel.js';
import type { OrgApiDeps } from './org-api/deps.js';
import { createOrgOrganisationService } from './org-api/organisation.service.js';
import { createOrgReadsService } from './org-api/reads.service.js';
import { createOrgTicketImportService } from './org-api/ticket-import.service.js';
import { createTicketIssuing } from './org-api/ticket-issuing.js';
import { createOrgTicketTypesService } from './org-api/ticket-types.service.js';
import { createOrgTicketsService } from './org-api/tickets.service.js';

/** The organisation API's service: the union of its parts (see above). */
export function createOrgApiService(deps: OrgApiDeps) {
  const issuing = createTicketIssuing(deps);
  return {
    ...createOrgEventsService(deps),
    ...createEventCancel(deps),
    ...createOrgTicketTypesService(deps),
    ...createOrgTicketsService(deps, issuing),
    ...createOrgTicketImportService(deps, issuing),
    ...createOrgReadsService(deps),
    ...createOrgOrganisationService(deps),
  };
}
export type OrgApiService = ReturnType<typeof createOrgApiService>;
