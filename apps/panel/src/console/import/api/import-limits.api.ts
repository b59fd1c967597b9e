/**
 * GET /v1/org/tickets/import: what one CSV import takes on this instance, rows and bytes (PostgreSQL takes 10,000
 * rows, the embedded database fewer).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ImportLimits } from '@tp/contract/organisations';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export const importLimitsQuery = queryOptions({
  queryKey: consoleKeys.importLimits,
  queryFn: (): Promise<ImportLimits> => org.GET('/v1/org/tickets/import'),
});

export const useImportLimits = () => useQuery(importLimitsQuery);
