/**
 * Issue 46: the ticket page offers "Ask for a refund" while the event's refund policy allows it, with the last moment
 * to ask in the event's time zone and an optional reason; a pending request shows its date and "Withdraw request"; a
 * declined one shows the organiser's reason (and the ask again while allowed); a refusal shows in the dialog. Each
 * change refreshes the ticket. The section's texts come from their own catalogue, in the page's language.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ToastContainer } from 'react-toastify';
import type { PanelConfig } from '@tp/contract';
import type { TicketRefund } from '@tp/contract/refunds';
import { loadCatalogue } from '../../lib/feature-catalogues';
import { initI18n, loadLaterTexts } from '../../lib/i18n';
import { queryKeys } from '../../lib/query-keys';
import { renderPanel } from '../../test/render';
import { fakeApi, jsonResponse, type FakeRequest } from '../../test/fetch';
import { aTicket, signedInForEachTest } from '../../test/fixtures';
import TicketScreen from './components/ticket-screen';

// The section and its catalogue load lazily, and each change waits for a refetch: slow on a loaded CI machine.
configure({ asyncUtilTimeout: 10_000 });
/** A test's limit (ms): the Spanish one loads the catalogues again, the first goes through two changes. */
const SLOW = 20_000;
signedInForEachTest();
afterEach(async () => {
  await initI18n('en');
  await loadLaterTexts();
});

const ID = 5;
const UNTIL = '2030-01-01T12:59:00.000Z'; // 23:59 in Sydney (AEDT, UTC+11)
const config = { orgWebsite: 'https://organiser.example', assetsBaseUrl: '' } as unknown as PanelConfig;
let refund: TicketRefund | undefined;
let calls: FakeRequest[];
let answer: (r: FakeRequest) => Response | undefined;

const openPage = async () => {
  fakeApi((r) => {
    calls.push(r);
    const special = answer(r);
    if (special) return special;
    if (r.path === `/tickets/${ID}/refund-request` && r.method === 'POST') {
      refund = {
        requestable: false,
        until: UNTIL,
        request: { status: 'pending', createdAt: '2029-12-30T22:00:00.000Z', declineReason: null },
      };
      return jsonResponse(refund, 201);
    }
    if (r.path === `/tickets/${ID}/refund-request` && r.method === 'DELETE') {
      refund = { requestable: true, until: UNTIL, request: null };
      return jsonResponse(refund);
    }
    if (r.path === `/exchange/returns/${ID}`) return jsonResponse({ message: 'api.not_found' }, 404);
    return jsonResponse(aTicket(ID, { eventTimeZone: 'Australia/Sydney', refund }));
  });
  renderPanel(
    <>
      <TicketScreen />
      <ToastContainer />
    </>,
    { search: `PANEL_TAB=TICKET&USER_TICKET_ID=${ID}`, data: [[queryKeys.config, config]] },
  );
  await screen.findByRole('heading', { name: 'Harbour Lights Festival' });
};
const section = (name = 'Refund') => screen.findByRole('region', { name });
const dialog = () => screen.getByRole('dialog');
const ticketReads = () => calls.filter((c) => c.path === `/list/ticket_listing/${ID}`).length;

describe("the ticket page's refund section", () => {
  it(
    'asks with a reason after confirming, then shows the pending request; withdrawing asks and offers it again',
    async () => {
      calls = [];
      answer = () => undefined;
      refund = { requestable: true, until: UNTIL, request: null };
      await openPage();
      const box = await section();
      expect(box.textContent).toContain('You can ask for a refund until Tue, 01 Jan 2030, 11:59 PM AEDT.');
      fireEvent.click(within(box).getByRole('button', { name: 'Ask for a refund' }));
      expect(dialog().textContent).toContain('If they approve, this ticket stops admitting');
      // Keeping the ticket calls nothing.
      fireEvent.click(within(dialog()).getByRole('button', { name: 'Keep my ticket' }));
      expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
      fireEvent.click(within(box).getByRole('button', { name: 'Ask for a refund' }));
      fireEvent.change(within(dialog()).getByLabelText('Reason (optional)'), {
        target: { value: '  I moved abroad. ' },
      });
      const readsBefore = ticketReads();
      fireEvent.click(within(dialog()).getByRole('button', { name: 'Ask for a refund' }));
      await screen.findByText('Refund requested');
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ reason: 'I moved abroad.' });
      // The ticket is read again, and shows the request.
      await waitFor(() => expect(ticketReads()).toBeGreaterThan(readsBefore));
      await waitFor(async () =>
        expect((await section()).textContent).toContain('Refund requested on Mon, 31 Dec 2029, 9:00 AM AEDT.'),
      );
      expect(within(await section()).queryByRole('button', { name: 'Ask for a refund' })).toBeNull();
      fireEvent.click(within(await section()).getByRole('button', { name: 'Withdraw request' }));
      fireEvent.click(within(dialog()).getByRole('button', { name: 'Withdraw request' }));
      await screen.findByText('Refund request withdrawn');
      expect(calls.some((c) => c.method === 'DELETE' && c.path === `/tickets/${ID}/refund-request`)).toBe(true);
      await waitFor(async () =>
        expect(within(await section()).getByRole('button', { name: 'Ask for a refund' })).toBeTruthy(),
      );
    },
    SLOW,
  );

  it('an empty reason sends none; a refusal shows in the dialog, which stays open', async () => {
    calls = [];
    refund = { requestable: true, until: null, request: null };
    answer = (r) => (r.method === 'POST' ? jsonResponse({ message: 'api.refund.not_eligible' }, 409) : undefined);
    await openPage();
    const box = await section();
    expect(box.textContent).not.toContain('until');
    fireEvent.click(within(box).getByRole('button', { name: 'Ask for a refund' }));
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Ask for a refund' }));
    const alert = await within(dialog()).findByRole('alert');
    expect(alert.textContent).toBe("This ticket can't be refunded: it was used, is on sale or in the exchange queue.");
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({});
  });

  it("declined: the organiser's reason, and the ask again while the policy allows", async () => {
    calls = [];
    answer = () => undefined;
    refund = {
      requestable: true,
      until: UNTIL,
      request: { status: 'declined', createdAt: '2029-12-30T22:00:00.000Z', declineReason: 'Tickets are final sale.' },
    };
    await openPage();
    const box = await section();
    expect(box.textContent).toContain('Refund declined');
    expect(box.textContent).toContain('From the organiser: Tickets are final sale.');
    expect(within(box).getByRole('button', { name: 'Ask for a refund' })).toBeTruthy();
  });

  it('nothing when the policy does not allow it and nothing was asked', async () => {
    for (const r of [undefined, { requestable: false, until: null, request: null }]) {
      calls = [];
      answer = () => undefined;
      refund = r;
      await openPage();
      expect(screen.queryByRole('region', { name: 'Refund' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Ask for a refund' })).toBeNull();
    }
  });

  it(
    'in Spanish, from its own catalogue',
    async () => {
      await initI18n('es');
      await loadLaterTexts();
      // The section's component was loaded by an earlier test: it renders at once, so its Spanish texts must be
      // there first (the app's language never changes after start; this file's does).
      await loadCatalogue('refund');
      calls = [];
      answer = () => undefined;
      refund = { requestable: true, until: UNTIL, request: null };
      await openPage();
      const box = await section('Reembolso');
      expect(within(box).getByRole('button', { name: 'Pedir el reembolso' })).toBeTruthy();
      expect(box.textContent).toContain('Puedes pedir el reembolso hasta el');
    },
    SLOW,
  );
});
