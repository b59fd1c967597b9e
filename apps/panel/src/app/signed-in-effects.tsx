/**
 * What only a signed-in panel does (issue 20), loaded on demand so the LOGIN screen's first load carries
 * none of it: the ticket lists persisted for offline use (lib/query-persistence.ts), the personal-data
 * step asked until given (use-personal-data-prompt.ts), and the step-up sheet (issue 47) that a call refused for want
 * of a fresh proof of presence opens (lib/api-client.ts `clientConfig.stepUp`), and the offer of a passkey once after a
 * sign-in (issue 47; features/settings/passkey-offer-state.ts says when). Renders that sheet while it is asked for (over
 * the offer, whose "Add a passkey" may ask for it), and the offer while it is due.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { clientConfig } from '../lib/api-client';
import { startQueryPersistence } from '../lib/query-persistence';
import { usePersonalDataPrompt } from './use-personal-data-prompt';

const StepUpSheet = lazy(() => import('../features/auth/components/step-up-sheet').then((m) => m.withTexts()));
const PasskeyOffer = lazy(() => import('../features/settings/components/passkey-offer').then((m) => m.withTexts()));

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
  // Decided once, when the signed-in panel starts (the offer keeps itself from showing twice in a session); loaded
  // apart, so this chunk's own load (listed in the app start's chunk) names none of its modules.
  const [offer, setOffer] = useState(false);
  useEffect(() => {
    void import('../features/settings/passkey-offer-state').then((m) => setOffer(m.passkeyOfferDue()));
  }, []);
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
  return (
    <>
      {offer && (
        <Suspense fallback={null}>
          <PasskeyOffer />
        </Suspense>
      )}
      {asked && (
        <Suspense fallback={null}>
          <StepUpSheet action={asked.action} onDone={done} />
        </Suspense>
      )}
    </>
  );
}
