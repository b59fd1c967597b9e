/**
 * The panel per organiser (issue 12, point 3): the public branding of an organisation
 * (`GET /v1/organisations/{slug}`) and the organisation an `X-Organisation` header names.
 *
 * Slugs are looked up in the database and kept in this process for `CACHE_SECONDS` (`lib/read-cache.ts`),
 * read again in the background after half of it, so a page naming an organisation does not wait for the
 * database (decision 027). A slug's id never changes; a renamed or recoloured organisation shows within that
 * time, as the HTTP cache of the branding answer allows too; `PATCH /v1/org/organisation` drops it from this
 * process's cache at once. Unknown slugs are not kept, so an organisation created a moment ago is found at once.
 */
import type { OrganisationBranding } from '@tp/contract';
import { branding as brandingContract, organisations as organisationsContract } from '@tp/contract';
import type { Database } from '../../db/client.js';
import type { organisations } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { brandingRepository as repo } from './branding.repository.js';
import { brandTheme } from './brand-colors.js';
import { readCache } from '../../lib/read-cache.js';

/** Seconds a looked-up organisation is reused, here and in the branding answer's `Cache-Control`. */
export const CACHE_SECONDS = 60;
/** At most this many slugs are kept; the cache is emptied when it is full. */
const CACHE_MAX = 1000;

type OrganisationRow = typeof organisations.$inferSelect;

/**
 * Maps a row to the public branding with the colour's palette for both themes (brand-colors.ts); a stored
 * colour that is not `#rrggbb` is left out (null).
 */
export function toBranding(row: OrganisationRow): OrganisationBranding {
  const color =
    row.primaryColor && brandingContract.hexColor.safeParse(row.primaryColor).success
      ? row.primaryColor.toLowerCase()
      : null;
  return {
    slug: row.slug,
    name: row.name,
    logoUrl: row.logoUrl,
    primaryColor: color,
    websiteUrl: row.website,
    helpCenterUrl: row.helpCenterUrl,
    appUrl: row.appUrl,
    theme: brandTheme(color),
  };
}

export function createBrandingService(deps: { database: Database; now: () => Date }) {
  const cache = readCache(
    async (slug: string): Promise<OrganisationRow> => {
      const row = organisationsContract.slug.safeParse(slug).success
        ? await repo.bySlug(deps.database.db, slug)
        : undefined;
      if (!row) throw new AppError('api.organisation.not_found');
      return row;
    },
    {
      ttlMs: CACHE_SECONDS * 1000,
      now: () => deps.now().getTime(),
      maxEntries: CACHE_MAX,
      isGone: (err) => err instanceof AppError && err.code === 'api.organisation.not_found',
    },
  );
  /** @throws AppError `api.organisation.not_found` (404) for a slug no organisation has. */
  const find = (slug: string) => cache.get(slug);
  return {
    /**
     * GET /v1/organisations/{slug}
     * @throws AppError `api.organisation.not_found` (404)
     */
    async branding(slug: string): Promise<OrganisationBranding> {
      return toBranding(await find(slug));
    },
    /**
     * The id of the organisation an `X-Organisation` header names.
     * @throws AppError `api.organisation.not_found` (404)
     */
    async organisationId(slug: string): Promise<number> {
      return (await find(slug)).id;
    },
    /**
     * Drops the slug from this process's cache (its organisation changed its brand, issue 21): this instance
     * answers the new brand at once, other instances within `CACHE_SECONDS`.
     */
    forget(slug: string): void {
      cache.forget(slug);
    },
  };
}
export type BrandingService = ReturnType<typeof createBrandingService>;
