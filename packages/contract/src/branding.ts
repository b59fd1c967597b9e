/**
 * The panel per organiser (issue 12, point 3): the public branding of an organisation and the header that
 * scopes the holder API to it.
 *
 * - `GET /v1/organisations/{slug}` answers `OrganisationBranding` (public, cached briefly); an unknown slug
 *   answers 404 `api.organisation.not_found`.
 * - `X-Organisation: <slug>` on any holder call limits every ticket list and lookup to that organisation's
 *   events; absent, the holder sees all of their tickets (one account per e-mail across organisations). An
 *   unknown slug answers 404 `api.organisation.not_found`, so a typo never shows an empty panel.
 */
import * as z from 'zod';

/** The request header naming the organisation the panel is shown for. */
export const ORGANISATION_HEADER = 'X-Organisation';

/** An organisation's slug: lower-case letters, digits and hyphens, 1 to 63 characters, no leading hyphen. */
export const organisationSlug = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/);

/** A `#rrggbb` colour. */
export const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/** GET /v1/organisations/{slug}: what the panel shows for one organisation. Null: the product's default. */
export const organisationBranding = z.object({
  slug: z.string(),
  name: z.string(),
  /** Absolute, or a path on the panel's origin. */
  logoUrl: z.string().nullable(),
  /** `#rrggbb`; the panel adjusts it when its contrast is too low (WCAG AA). */
  primaryColor: z.string().nullable(),
  /** The organisation's own site (header link). */
  websiteUrl: z.string().nullable(),
  helpCenterUrl: z.string().nullable(),
  appUrl: z.string().nullable(),
});
export type OrganisationBranding = z.infer<typeof organisationBranding>;

export const organisationParams = z.strictObject({ slug: z.string().max(100) });
