/** GET /v1/org/members: who signs in to this console and with which role (owners; issue 21). */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MemberItem } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export const membersQuery = queryOptions({
  queryKey: consoleKeys.members,
  queryFn: (): Promise<MemberItem[]> => org.GET('/v1/org/members'),
});

export const useMembers = () => useQuery(membersQuery);
