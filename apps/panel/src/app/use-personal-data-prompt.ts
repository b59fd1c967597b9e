/**
 * The personal-data step is asked until given (issue 20 point 6): a signed-in holder without a first name
 * (who closed the panel at PERSONAL_DATA, or signed up elsewhere) is taken back to PERSONAL_DATA whenever
 * the panel opens or shows a screen, so the door never shows "Holder: guest#…". Not while offline: the
 * name cannot be saved then, and the pass must stay reachable at a gate without signal. Not in an inline frame
 * of the host page: it shows the screen the organiser placed there; the modal and the standalone panel ask.
 * The screen it interrupts is where the step returns once the name is saved (lib/return-route.ts, issue 40).
 */
import { useEffect } from 'react';
import { useUser } from '../lib/queries';
import { useRoute, navigate } from '../lib/use-route';
import { AUTH_TABS } from '../lib/routing';
import { isOffline } from '../lib/api-client';
import { embedMode } from '../lib/host-bridge';

export function usePersonalDataPrompt(): void {
  const user = useUser().data;
  const { tab, userTicketId, ticketName, settingsTab } = useRoute();
  useEffect(() => {
    if (!user || user.givenName?.trim() || AUTH_TABS.includes(tab) || isOffline() || embedMode === 'inline') return;
    const back = { tab, overlay: null, userTicketId, ticketName, settingsTab };
    void import('../lib/return-route').then((m) => m.rememberReturn(back));
    navigate({ tab: 'PERSONAL_DATA', overlay: null, userTicketId: null, ticketName: null }, { replace: true });
  }, [user, tab, userTicketId, ticketName, settingsTab]);
}
