/**
 * GET /v1/organisations/{slug}: the holder panel's branding of the organisation (its contrast-adjusted colours in
 * `theme`), for the preview. The public answer is cached by browsers for a minute (`Cache-Control: public,
 * max-age=60`), which keeps embedded panels fast; the preview asks the server every time (`fresh`, `no-cache`), so a
 * saved brand shows here at once and after a reload (issue 41, point 7). The fresh answer also replaces the
 * browser's stored copy, so this browser's holder panel shows it at once too.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrganisationBranding } from '@tp/contract';
import { fresh } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export const panelBrandingQuery = (slug: string) =>
  queryOptions({
    queryKey: consoleKeys.branding(slug),
    queryFn: (): Promise<OrganisationBranding> => fresh.GET('/v1/organisations/{slug}', { params: { path: { slug } } }),
  });

export const usePanelBranding = (slug: string) => useQuery(panelBrandingQuery(slug));
