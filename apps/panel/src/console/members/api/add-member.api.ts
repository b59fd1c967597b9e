/**
 * POST /v1/org/members: adds a member by e-mail (a new account when there is none), the invitation and the account
 * in this console's language (issue 41, re-walk). Refreshes the member list.
 * @throws ApiError `api.org.member_exists` (409) and validation keys.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberItem, OrgRole } from '@tp/contract';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';

export interface NewMember {
  email: string;
  role: OrgRole;
}

/** `lang`: the console's language (`?lang=`), which the new account and its invitation take. */
export const addMember = (member: NewMember, lang: string): Promise<MemberItem> =>
  org.POST('/v1/org/members', { params: { query: { lang: lang.startsWith('es') ? 'es' : 'en' } }, body: member });

/** The add mutation (`mutate({ member, lang })`); `onSuccess` runs after the list is refreshed. */
export function useAddMember(options: {
  onMutate?: () => void;
  onError?: (err: unknown) => void;
  onSuccess?: () => void;
}) {
  const client = useQueryClient();
  return useMutation({
    onMutate: options.onMutate,
    onError: options.onError,
    mutationFn: (v: { member: NewMember; lang: string }) => addMember(v.member, v.lang),
    onSuccess: async () => {
      options.onSuccess?.();
      await client.invalidateQueries({ queryKey: consoleKeys.members });
    },
  });
}
