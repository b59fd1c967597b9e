/**
 * POST /v1/org/door-keys: a new door key, for all events or those listed by id (typed comma-separated), scanning in
 * or out (`mode`) at a zone or the general doors (issue 48); the answer carries the key, shown once. Refreshes the
 * list.
 * @throws ApiError `api.org.event_not_found` and validation keys.
 */
import type { DoorMode } from '@tp/contract/access';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation, type FormMutationOptions } from '../../form-mutation';

/**
 * The door key form's inputs: `events` as typed, ids separated by commas (empty: all events); `mode`; `zone` as typed
 * (empty: the general doors).
 */
export type NewDoorKey = { name: string; events: string; mode: DoorMode; zone: string };

export function createDoorKey(v: NewDoorKey): Promise<{ key: string }> {
  const eventExternalIds = v.events
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return org.POST('/v1/org/door-keys', {
    body: {
      name: v.name,
      ...(eventExternalIds.length ? { eventExternalIds } : {}),
      mode: v.mode,
      ...(v.zone.trim() ? { zone: v.zone.trim() } : {}),
    },
  });
}

/** The create mutation; `onSuccess` gets the answer after the list is refreshed. */
export const useCreateDoorKey = (options: FormMutationOptions<{ key: string }>) =>
  useFormMutation(createDoorKey, [consoleKeys.doorKeys], options);
