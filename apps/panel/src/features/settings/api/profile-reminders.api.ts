/**
 * PUT /v1/auth/reminders {reminders} (issue 41 point 9; beyond the spec, docs/decisions/001 and 025): reminder
 * e-mails before events on or off, the same switch the reminder's unsubscribe link turns off. Answers the updated
 * User (its `reminders`) and refreshes USER.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@tp/contract';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const setReminders = (reminders: boolean): Promise<User> =>
  client.PUT('/v1/auth/reminders', { body: { reminders } });

export function useSetReminders() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setReminders,
    onSuccess: (user) => {
      qc.setQueryData(queryKeys.user.all, user);
      void qc.invalidateQueries({ queryKey: queryKeys.user.all });
    },
  });
}
