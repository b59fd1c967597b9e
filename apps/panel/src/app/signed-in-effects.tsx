/**
 * What only a signed-in panel does (issue 20), loaded on demand so the LOGIN screen's first load carries
 * none of it: the ticket lists persisted for offline use (lib/query-persistence.ts) and the personal-data
 * step asked until given (use-personal-data-prompt.ts). Renders nothing.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { startQueryPersistence } from '../lib/query-persistence';
import { usePersonalDataPrompt } from './use-personal-data-prompt';

export default function SignedInEffects(): null {
  const queryClient = useQueryClient();
  useEffect(() => {
    void startQueryPersistence(queryClient).catch(() => undefined);
  }, [queryClient]);
  usePersonalDataPrompt();
  return null;
}
