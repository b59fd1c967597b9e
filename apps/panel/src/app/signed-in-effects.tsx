/**
 * What only a signed-in panel does (issue 20), loaded on demand so the LOGIN screen's first load carries
 * none of it: the ticket lists persisted for offline use (lib/query-persistence.ts), the personal-data
 * step asked until given (use-personal-data-prompt.ts), and the step-up sheet (issue 47) that a call refused for want
 * of a fresh proof of presence opens (lib/api-client.ts `clientConfig.stepUp`). Renders that sheet while it is asked for,
 * else nothing.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { clientConfig } from '../lib/api-client';
import { startQueryPersistence } from '../lib/query-persistence';
import { usePersonalDataPrompt } from './use-personal-data-prompt';

const StepUpSheet = lazy(() => import('../features/auth/components/step-up-sheet').then((m) => m.withTexts()));

/** One step-up asked for: the refused action, and the answer every call waiting on it gets. */
interface Asked {
  action: string;
  promise: Promise<boolean>;
  resolve: (steppedUp: boolean) => void;
}

export default function SignedInEffects() {
  const queryClient = useQueryClient();
  useEffect(() => {
    void startQueryPersistence(queryClient).catch(() => undefined);
  }, [queryClient]);
  usePersonalDataPrompt();
  const [asked, setAsked] = useState<Asked | null>(null);
  const open = useRef<Asked | null>(null);
  useEffect(() => {
    // Calls refused at the same moment (two screens' calls) share one sheet and one answer.
    clientConfig.stepUp = (action) => {
      if (!open.current) {
        let resolve!: (steppedUp: boolean) => void;
        const promise = new Promise<boolean>((r) => (resolve = r));
        open.current = { action, promise, resolve };
        setAsked(open.current);
      }
      return open.current.promise;
    };
    return () => {
      delete clientConfig.stepUp;
      open.current?.resolve(false);
    };
  }, []);
  // Stable: the sheet's dialog keeps its history entry while open (ui/modal.tsx).
  const done = useCallback((steppedUp: boolean) => {
    const answered = open.current;
    open.current = null;
    setAsked(null);
    answered?.resolve(steppedUp);
  }, []);
  if (!asked) return null;
  return (
    <Suspense fallback={null}>
      <StepUpSheet action={asked.action} onDone={done} />
    </Suspense>
  );
}
