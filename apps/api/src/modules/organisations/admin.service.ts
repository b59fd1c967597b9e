/**
 * The platform admin's rules (issue 12, `/v1/admin/*`): create organisations and rotate or revoke their API
 * keys (admin-keys.ts). A key is shown once and stored as a SHA-256 hash (api-keys.ts). Rotation issues a new
 * key and lets the keys live until then work `KEY_ROTATION_OVERLAP_SECONDS` more (so a deployment can switch
 * without a gap); revocation ends one key at once. Each change is recorded in the organisation's audit trail (issue 25) in
 * its transaction, with the platform admin as actor.
 */
import type { organisations as contract } from '@tp/contract';
import type * as z from 'zod';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { addKey, createAdminKeys } from './admin-keys.js';
import { organisationsRepository as repo } from './organisations.repository.js';
import { membersRepository } from './members.repository.js';
import type { EnsureUser } from './org-api/deps.js';
import { appendAudit, type AuditActor } from '../audit/audit.repository.js';
import { enqueueLogoFetch } from '../../providers/mail/mail-logo.js';

/**
 * The admin service: creating an organisation here; its API keys' operations in admin-keys.ts (rotation's overlap,
 * `KEY_ROTATION_OVERLAP_SECONDS`, is there).
 */
export function createAdminService(deps: { database: Database; now: () => Date; ensureUser: EnsureUser }) {
  const db = deps.database.db;

  return {
    /**
     * POST /v1/admin/organisations: the organisation, its first API key and, with `ownerEmail`, its first owner
     * (issue 21; the account is created when there is none), in one transaction with their audit entries
     * (`organisation.created`, `api_key.created`, `member.added`) and, with a logo, the fetch of its e-mails' copy
     * (providers/mail/mail-logo.ts).
     * @throws AppError `api.org.slug_taken` (409).
     */
    async createOrganisation(input: z.infer<typeof contract.createOrganisationRequest>, actor: AuditActor) {
      const at = deps.now();
      return db.transaction(async (tx) => {
        const org = await repo.insertOrganisation(tx, {
          slug: input.slug,
          name: input.name,
          primaryColor: input.primaryColor ?? null,
          logoUrl: input.logoUrl ?? null,
          website: input.websiteUrl ?? null,
          helpCenterUrl: input.helpCenterUrl ?? null,
          appUrl: input.appUrl ?? null,
          createdAt: at,
        });
        if (!org) throw new AppError('api.org.slug_taken');
        // Its e-mails carry the logo, fetched in the background (issue 41 point 9).
        await enqueueLogoFetch(tx, at, org.id, org.logoUrl);
        const key = await addKey(tx, org.id, at);
        await appendAudit(tx, org.id, actor, at, {
          action: 'organisation.created',
          resourceType: 'organisation',
          resourceId: org.id,
          detail: { slug: org.slug, name: org.name },
        });
        await appendAudit(tx, org.id, actor, at, {
          action: 'api_key.created',
          resourceType: 'api_key',
          resourceId: key.id,
          detail: { prefix: key.prefix },
        });
        if (input.ownerEmail) {
          const owner = await deps.ensureUser(input.ownerEmail, 'en', tx);
          const member = await membersRepository.insertMember(tx, {
            organisationId: org.id,
            userId: owner.id,
            role: 'owner',
            createdAt: at,
          });
          if (member)
            await appendAudit(tx, org.id, actor, at, {
              action: 'member.added',
              resourceType: 'member',
              resourceId: member.id,
              // By e-mail, as a member added in the console (issue 41 point 12, re-walk: "member 1").
              detail: { userId: owner.id, email: input.ownerEmail, role: 'owner' },
            });
        }
        return { id: org.id, slug: org.slug, apiKey: key.apiKey };
      });
    },

    ...createAdminKeys(deps),
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
