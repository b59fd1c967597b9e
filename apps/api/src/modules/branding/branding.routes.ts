/** Route: GET /organisations/{slug}, an organisation's public branding (no sign-in; cached briefly). */
import { branding as brandingContract } from '@tp/contract';
import type { App } from '../../lib/http.js';
import { errors } from '../../lib/openapi.js';
import { CACHE_SECONDS, type BrandingService } from './branding.service.js';

export function brandingRoutes(app: App, deps: { branding: BrandingService }) {
  app.get(
    '/organisations/:slug',
    {
      schema: {
        operationId: 'getOrganisationBranding',
        summary: "An organisation's branding for the panel (`/en/?org=<slug>`, the loader's `data-org`)",
        description:
          'Public. Name, logo, primary colour, web site, help centre and app links of one organisation; ' +
          'null fields fall back to the product defaults. Unknown slug: 404 `api.organisation.not_found`.',
        params: brandingContract.organisationParams,
        response: { 200: brandingContract.organisationBranding, ...errors(404) },
      },
    },
    async (req, reply) => {
      const body = await deps.branding.branding(req.params.slug);
      return reply.header('Cache-Control', `public, max-age=${CACHE_SECONDS}`).send(body);
    },
  );
}
