import { describe, expect, it } from 'vitest';
import { ApiError } from './typed-client';
import { createQueryClient } from './query-client';
import { queryKeys } from './query-keys';

describe('query client retries (issue 44)', () => {
  it('tries a failed query once more, but not one the API shed (the client already waited and tried again)', async () => {
    const client = createQueryClient();
    const tries = { busy: 0, failed: 0 };
    const keys = { busy: queryKeys.user.all, failed: queryKeys.tickets.all };
    const run = (key: 'busy' | 'failed', err: Error) =>
      client
        .fetchQuery({
          queryKey: keys[key],
          queryFn: () => {
            tries[key]++;
            return Promise.reject(err);
          },
          retryDelay: 0,
        })
        .catch((e: unknown) => e);
    expect(await run('busy', new ApiError('api.busy', 503))).toMatchObject({ message: 'api.busy' });
    expect(await run('failed', new ApiError('request_failed', 500))).toMatchObject({ message: 'request_failed' });
    expect(tries).toEqual({ busy: 1, failed: 2 });
  });
});
