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

/** A `#rrggbb` colour. */
export const hexColor = z.string().regex(/^#[0-9a-fA-F]{6}$/);

/** The accent colours of one theme (the panel's CSS custom properties `--accent`, `--accent-text`, ...). */
export const accentPalette = z.object({
  /** `--accent`: buttons, links, selected states; at least 4.5:1 on the theme's page and surface. */
  accent: hexColor,
  /** `--accent-text`: text on the accent, at least 4.5:1 on it. */
  accentText: hexColor,
  /** `--accent-soft`: tinted background of selected items; the theme's text stays at 4.5:1 on it. */
  accentSoft: hexColor,
  /** `--focus`: the focus ring, a CSS box-shadow. */
  focus: z.string().regex(/^0 0 0 3px rgb\(\d{1,3} \d{1,3} \d{1,3} \/ 40%\)$/),
});
export type AccentPalette = z.infer<typeof accentPalette>;

/**
 * An organisation's name and look as the API answers them (GET /v1/organisations/{slug} and GET/PATCH
 * /v1/org/organisation share these fields, in this order). Null: the product's default.
 */
export const organisationLookFields = {
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
};

/** GET /v1/organisations/{slug}: what the panel shows for one organisation. Null: the product's default. */
export const organisationBranding = z
  .object({
    ...organisationLookFields,
    /** `primaryColor` made WCAG AA-safe for each of the panel's themes (issue 12); null without a colour. */
    theme: z.object({ light: accentPalette, dark: accentPalette }).nullable(),
  })
  .meta({
    examples: [
      {
        slug: 'southern-lights',
        name: 'Southern Lights Live',
        logoUrl: 'https://southernlights.example/logo.svg',
        primaryColor: '#0e7c66',
        websiteUrl: 'https://southernlights.example',
        helpCenterUrl: 'https://southernlights.example/help',
        appUrl: null,
        theme: {
          light: {
            accent: '#0e7c66',
            accentText: '#ffffff',
            accentSoft: '#e2f0ed',
            focus: '0 0 0 3px rgb(14 124 102 / 40%)',
          },
          dark: {
            accent: '#16bb9a',
            accentText: '#111400',
            accentSoft: '#1a3d37',
            focus: '0 0 0 3px rgb(22 187 154 / 40%)',
          },
        },
      },
    ],
  });
export type OrganisationBranding = z.infer<typeof organisationBranding>;

export const organisationParams = z.strictObject({ slug: z.string().max(100) });

/** The request headers every holder call (a signed-in route) documents and accepts; others pass through. */
export const holderHeaders = z.looseObject({
  'x-organisation': z
    .string()
    .max(100)
    .optional()
    .meta({
      description:
        "The organisation's slug: limits every ticket list and lookup to its events (absent: all of the holder's " +
        'tickets); unknown slug: 404 `api.organisation.not_found`.',
    }),
});
