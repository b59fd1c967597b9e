/**
 * POST /v1/org/door-keys: a new door key, for all events or those listed by id (typed comma-separated); the answer
 * carries the key, shown once. Refreshes the list.
 * @throws ApiError `api.org.event_not_found` and validation keys.
 */
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation, type FormMutationOptions } from '../../form-mutation';

/** The door key form's inputs: `events` as typed, ids separated by commas (empty: all events). */
export type NewDoorKey = { name: string; events: string };

export function createDoorKey(v: NewDoorKey): Promise<{ key: string }> {
  const eventExternalIds = v.events
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return org.POST('/v1/org/door-keys', {
    body: { name: v.name, ...(eventExternalIds.length ? { eventExternalIds } : {}) },
  });
}

/** The create mutation; `onSuccess` gets the answer after the list is refreshed. */
export const useCreateDoorKey = (options: FormMutationOptions<{ key: string }>) =>
  useFormMutation(createDoorKey, [consoleKeys.doorKeys], options);
