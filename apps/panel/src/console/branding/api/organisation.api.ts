/** GET /v1/org/organisation: the organisation's name, logo, colour and links (the branding form's values). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export type Organisation = z.infer<typeof organisations.organisationItem>;

export const organisationQuery = queryOptions({
  queryKey: consoleKeys.organisation,
  queryFn: (): Promise<Organisation> => org.GET('/v1/org/organisation'),
});

export const useOrganisation = () => useQuery(organisationQuery);
