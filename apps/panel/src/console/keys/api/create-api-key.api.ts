/** POST /v1/org/api-keys: a new API key, shown once (the previous keys expire later). Refreshes the list. */
import type { organisations } from '@tp/contract';
import type * as z from 'zod';
import { org } from '../../api';
import { consoleKeys } from '../../console-query-keys';
import { useFormMutation, type FormMutationOptions } from '../../form-mutation';

type NewApiKey = z.infer<typeof organisations.createApiKeyResponse>;

export const createApiKey = (): Promise<NewApiKey> => org.POST('/v1/org/api-keys');

/** The create mutation; `onSuccess` gets the answer after the list is refreshed. */
export const useCreateApiKey = (options: FormMutationOptions<NewApiKey>) =>
  useFormMutation<void, NewApiKey>(createApiKey, [consoleKeys.apiKeys], options);
