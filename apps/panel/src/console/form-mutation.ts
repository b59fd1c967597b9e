/**
 * The mutation of a console form (issue 43: written once): the call, then the lists it changed are refreshed
 * (`refresh`: the query keys to invalidate, from console-query-keys.ts), then `onSuccess` with the answer. `onMutate`
 * clears the form's error (`useServerErrors().setFormError(null)`), `onError` places the answer's errors
 * (`useServerErrors().show`).
 */
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

export interface FormMutationOptions<R> {
  onMutate?: () => void;
  onError?: (err: unknown) => void;
  onSuccess?: (answer: R) => void;
}

export function useFormMutation<V, R>(
  mutationFn: (v: V) => Promise<R>,
  refresh: QueryKey[],
  options: FormMutationOptions<R>,
) {
  const client = useQueryClient();
  return useMutation({
    onMutate: options.onMutate,
    mutationFn,
    onSuccess: async (answer: R) => {
      await Promise.all(refresh.map((queryKey) => client.invalidateQueries({ queryKey })));
      options.onSuccess?.(answer);
    },
    onError: options.onError,
  });
}
