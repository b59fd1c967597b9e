/**
 * GET /v1/org/imports/{importId} (issue 44): where a background import is, asked again every second until it is
 * done or failed (the organiser API allows 600 calls a minute; one a second leaves the rest to other calls).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ImportStatus } from '@tp/contract/organisations';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

/** Milliseconds between two reads of a running import's progress. */
const POLL_MS = 1000;

export const importStatusQuery = (importId: string) =>
  queryOptions({
    queryKey: consoleKeys.importStatus(importId),
    queryFn: (): Promise<ImportStatus> => org.GET('/v1/org/imports/{importId}', { params: { path: { importId } } }),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'done' || status === 'failed' ? false : POLL_MS;
    },
  });

/** The import's progress, polled while it is queued or running; nothing asked without an id. */
export const useImportStatus = (importId: string | null) =>
  useQuery({ ...importStatusQuery(importId ?? ''), enabled: importId !== null });
