/** GET /v1/org/door-keys: the organisation's door keys for the door scanners (owners and door staff; issue 21). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { doorKeys } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export const doorKeysQuery = queryOptions({
  queryKey: consoleKeys.doorKeys,
  queryFn: (): Promise<doorKeys.DoorKeyItem[]> => org.GET('/v1/org/door-keys'),
});

export const useDoorKeys = () => useQuery(doorKeysQuery);
