/**
 * Offline lists (issue 20 point 7): once the holder is signed in, standalone or embedded, the persisted
 * ticket lists and pages are restored and kept (lib/query-persistence.ts, loaded here on demand so that
 * the LOGIN screen's first load stays within its byte budget).
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSignedIn } from '../lib/session';

export function useQueryPersistence(): void {
  const signedIn = useSignedIn();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!signedIn) return;
    void import('../lib/query-persistence').then((m) => m.startQueryPersistence(queryClient)).catch(() => undefined);
  }, [signedIn, queryClient]);
}
