/**
 * GET /v1/org/events/{externalId}/holders (issue 46): how many people a change of the event's time or place would
 * e-mail now, asked by the event form once such a field differs from the saved event.
 */
import { useQuery } from '@tanstack/react-query';
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

type EventHolders = z.infer<typeof organisations.eventHoldersResponse>;

/** The count of `externalId`'s holders, asked only while `enabled`. */
export const useEventHolders = (externalId: string, enabled: boolean) =>
  useQuery({
    queryKey: consoleKeys.events.holders(externalId),
    queryFn: (): Promise<EventHolders> =>
      org.GET('/v1/org/events/{externalId}/holders', { params: { path: { externalId } } }),
    enabled,
  });
