/**
 * The persisted lists (issue 20) refetch only what came from storage: an answer this document fetched before the
 * persistence started (the first screen's user and tickets, fetched before the first QR) is current, and asking
 * again was the start's duplicate `/auth/me` and ticket listing (issue 30).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { QueryObserver } from '@tanstack/react-query';
import { createQueryClient } from './query-client';
import { queryKeys } from './query-keys';
import { startQueryPersistence } from './query-persistence';

afterEach(() => localStorage.clear());

describe('startQueryPersistence', () => {
  it('does not refetch the user this document fetched before it started', async () => {
    localStorage.setItem('tp.accessToken', 'token');
    const queryClient = createQueryClient();
    let calls = 0;
    const observer = new QueryObserver(queryClient, {
      queryKey: queryKeys.user.all,
      queryFn: () => ({ id: ++calls }),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
    await startQueryPersistence(queryClient);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(1);
    unsubscribe();
  });
});
