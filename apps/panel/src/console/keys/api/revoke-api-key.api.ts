/** DELETE /v1/org/api-keys/{id}: revokes an API key (from its next request). Refreshes the list. */
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation } from '../../form-mutation';

export const revokeApiKey = (id: number): Promise<void> =>
  org.DELETE('/v1/org/api-keys/{id}', { params: { path: { id } } });

export const useRevokeApiKey = () => useFormMutation(revokeApiKey, [consoleKeys.apiKeys], {});
