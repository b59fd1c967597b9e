/**
 * The organisation API's own organisation (issue 21): GET and PATCH /org/organisation (name, logo, colour and
 * links of the panel's branding, and the reschedule threshold of issue 46). The panel's branding answer shows a change at once on this instance (the
 * branding cache forgets the slug) and within `CACHE_SECONDS` (60 s) on any other.
 */
import type { organisations as contract } from '@tp/contract';
import type * as z from 'zod';
import type { organisations } from '../../../db/schema.js';
import { AppError } from '../../../lib/app-error.js';
import { organisationsRepository as repo, type OrganisationRow } from '../organisations.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import type { OrgApiDeps } from './deps.js';
import { appendAudit } from '../../audit/audit.repository.js';
import { enqueueLogoFetch } from '../../../providers/mail/mail-logo.js';

/**
 * Each field of the request and the organisation's column that keeps it: the branding, and the reschedule threshold
 * (issue 46; audited with them as `branding.updated`).
 */
const BRANDING_COLUMNS = {
  name: 'name',
  logoUrl: 'logoUrl',
  primaryColor: 'primaryColor',
  websiteUrl: 'website',
  helpCenterUrl: 'helpCenterUrl',
  appUrl: 'appUrl',
  rescheduleThresholdMinutes: 'rescheduleThresholdMinutes',
} as const satisfies Record<string, keyof OrganisationRow>;

type OrganisationItem = z.infer<typeof contract.organisationItem>;

const itemOf = (row: OrganisationRow): OrganisationItem => ({
  slug: row.slug,
  name: row.name,
  logoUrl: row.logoUrl,
  primaryColor: row.primaryColor,
  websiteUrl: row.website,
  helpCenterUrl: row.helpCenterUrl,
  appUrl: row.appUrl,
  rescheduleThresholdMinutes: row.rescheduleThresholdMinutes,
});

/** The organisation part of the organisation API. */
export function createOrgOrganisationService(deps: Pick<OrgApiDeps, 'database' | 'brandingChanged' | 'now'>) {
  const db = deps.database.db;
  return {
    /**
     * GET /org/organisation: the calling organisation's brand.
     * @throws AppError `api.org.organisation_not_found` (404; the organisation went away under its key).
     */
    async getOrganisation(org: RequestOrganisation): Promise<OrganisationItem> {
      const row = await repo.organisationById(db, org.id);
      if (!row) throw new AppError('api.org.organisation_not_found');
      return itemOf(row);
    },

    /**
     * PATCH /org/organisation: changes the fields given (`null` clears one); the branding cache forgets the slug. A
     * changed logo URL enqueues the fetch of the e-mails' copy (providers/mail/mail-logo.ts) in the transaction.
     * Audited `branding.updated` with the names of the fields whose value changed (none changed: no entry), in the
     * same transaction.
     * @throws AppError `api.org.organisation_not_found` (404).
     */
    async updateOrganisation(
      org: RequestOrganisation,
      input: z.infer<typeof contract.updateOrganisationRequest>,
    ): Promise<OrganisationItem> {
      const values: Partial<typeof organisations.$inferInsert> = {};
      if (input.name !== undefined) values.name = input.name;
      if (input.logoUrl !== undefined) values.logoUrl = input.logoUrl;
      if (input.primaryColor !== undefined) values.primaryColor = input.primaryColor?.toLowerCase() ?? null;
      if (input.websiteUrl !== undefined) values.website = input.websiteUrl;
      if (input.helpCenterUrl !== undefined) values.helpCenterUrl = input.helpCenterUrl;
      if (input.appUrl !== undefined) values.appUrl = input.appUrl;
      if (input.rescheduleThresholdMinutes !== undefined)
        values.rescheduleThresholdMinutes = input.rescheduleThresholdMinutes;
      const row = await db.transaction(async (tx) => {
        const before = await repo.organisationById(tx, org.id);
        const updated = await repo.updateOrganisation(tx, org.id, values);
        if (!before || !updated) throw new AppError('api.org.organisation_not_found');
        // The fields whose value changed, by their names in the request (issue 41 point 12, re-walk: the console's
        // form sends every field, and the trail said all six changed when two did).
        const fields = (Object.keys(BRANDING_COLUMNS) as (keyof typeof BRANDING_COLUMNS)[]).filter(
          (field) => input[field] !== undefined && before[BRANDING_COLUMNS[field]] !== updated[BRANDING_COLUMNS[field]],
        );
        if (fields.length > 0)
          await appendAudit(tx, org.id, org.actor, deps.now(), {
            action: 'branding.updated',
            resourceType: 'organisation',
            resourceId: org.id,
            detail: { fields },
          });
        // A new logo URL: its e-mails' copy is fetched in the background (issue 41 point 9), never in the request.
        if (before.logoUrl !== updated.logoUrl) await enqueueLogoFetch(tx, deps.now(), org.id, updated.logoUrl);
        return updated;
      });
      deps.brandingChanged?.(row.slug);
      return itemOf(row);
    },
  };
}
