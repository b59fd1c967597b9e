/** DELETE /v1/org/door-keys/{id}: revokes a door key (from its next request). Refreshes the list. */
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation } from '../../form-mutation';

export const revokeDoorKey = (id: number): Promise<void> =>
  org.DELETE('/v1/org/door-keys/{id}', { params: { path: { id } } });

export const useRevokeDoorKey = () => useFormMutation(revokeDoorKey, [consoleKeys.doorKeys], {});
