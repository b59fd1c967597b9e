import { beforeEach, describe, expect, it, vi } from 'vitest';
import { navigate } from '../lib/use-route';
import { reloadAtNextScreen } from './reload-at-next-screen';

describe('the reload a newer service worker asks for (reload-at-next-screen.ts)', () => {
  const reload = vi.fn();
  beforeEach(() => {
    reload.mockClear();
    window.history.replaceState(null, '', '/en/?PANEL_TAB=GIFT&USER_TICKET_ID=ut_1');
  });

  it('waits for the next change of screen, then reloads once', () => {
    reloadAtNextScreen(reload);
    expect(reload).not.toHaveBeenCalled();
    // The gift's success forgets the ticket id: same screen, the "Ticket gifted!" page stays.
    navigate({ userTicketId: null, ticketName: null }, { replace: true });
    expect(reload).not.toHaveBeenCalled();
    navigate({ tab: 'MY_TICKET' });
    expect(reload).toHaveBeenCalledTimes(1);
    navigate({ tab: 'GIFT' });
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('takes a lower-case PANEL_TAB rewritten to upper case for the same screen', () => {
    window.history.replaceState(null, '', '/en/?PANEL_TAB=gift');
    reloadAtNextScreen(reload);
    navigate({ tab: 'GIFT' }, { replace: true });
    expect(reload).not.toHaveBeenCalled();
  });
});
