/**
 * Issue 46: cancelling an event from the console. The event's form view has "Cancel event", which opens the confirm
 * box: the reason, then "Check what it touches" (POST …/cancel { dryRun: true }, its counts in words), then "Cancel
 * the event" (the cancel, its answer shown). A cancelled event's views say when and why, without the form or the
 * action, and the events list marks it without Edit; its ticket types and exchange queue are shown without a control
 * that would change them (the API refuses with `api.org.event_cancelled`), in both languages.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { initConsoleI18n } from '../../i18n';
import type { ConsoleRoute } from '../../routing';
import { EventView } from './event-view';
import { EventsScreen } from './events-screen';
import { jsonResponse as json } from '../../../test/fetch';
import { aConsoleEvent } from '../../../test/fixtures';

/** The event form's start field: present while the form is shown. */
const STARTS = "Starts (event's local time)";

const base = aConsoleEvent();
const counts = { tickets: 12, holders: 1, listings: 2, openOrders: 0, exchangeEntries: 3, walletPasses: 4 };
const REASON = 'The venue flooded. Your shop refunds you within 14 days.';

const gaType = {
  externalId: 'ga',
  eventExternalId: 'evt-1',
  name: 'General Admission',
  description: null,
  priceCents: 5000,
  currency: 'AUD',
  resaleCapCents: 5000,
  isGiftable: true,
  isResellable: true,
  isSwappable: false,
  stock: 0,
  swapTargets: [],
};
const exchange = {
  settings: {
    enabled: true,
    offerMinutes: 20,
    order: 'first_come',
    drawAt: null,
    maxQuantity: 4,
    closesAt: null,
    effectiveClosesAt: '2027-03-01T09:00:00Z',
    closedAt: '2027-02-20T01:30:00.000Z',
  },
  types: [
    {
      ticketTypeExternalId: 'ga',
      name: 'General Admission',
      waiting: 0,
      offered: 0,
      returned: 2,
      released: 0,
      sold: 1,
    },
  ].map((type) => ({ ...type, expired: 0 })),
};

type Call = { method: string; url: string; body: unknown };
let calls: Call[];
/** The event the stub answers, changed by a cancel. */
let event: typeof base;

beforeAll(async () => {
  await initConsoleI18n();
});
beforeEach(async () => {
  await i18next.changeLanguage('en');
  document.documentElement.lang = 'en';
  calls = [];
  event = { ...base };
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = init?.body ? (JSON.parse(init.body as string) as { dryRun?: boolean; reason?: string }) : undefined;
      calls.push({ method, url: input, body });
      const route = `${method} ${input.split('?')[0]}`;
      if (route === 'GET /v1/org/events/evt-1') return Promise.resolve(json(event));
      if (route === 'GET /v1/org/events') return Promise.resolve(json({ items: [event], nextCursor: null }));
      if (route === 'GET /v1/org/ticket-types') return Promise.resolve(json({ items: [gaType], nextCursor: null }));
      if (route === 'GET /v1/org/events/evt-1/exchange') return Promise.resolve(json(exchange));
      if (route === 'GET /v1/org/payout-account') return Promise.resolve(json({ verified: true, started: true }));
      if (route === 'POST /v1/org/events/evt-1/cancel') {
        if (body?.dryRun) return Promise.resolve(json({ dryRun: true, cancelledAt: null, ...counts }));
        event = { ...event, cancelledAt: '2027-02-20T01:30:00.000Z', cancelReason: body?.reason ?? null };
        return Promise.resolve(json({ dryRun: false, cancelledAt: event.cancelledAt, ...counts }));
      }
      return Promise.resolve(json({ message: 'api.not_found' }, 404));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const mount = (route: ConsoleRoute) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      {route.screen === 'events' && 'event' in route ? (
        <EventView route={route} />
      ) : (
        <EventsScreen route={{ screen: 'events' }} />
      )}
    </QueryClientProvider>,
  );
const EDIT: ConsoleRoute = { screen: 'events', event: 'evt-1', view: 'edit' };
const cancels = () => calls.filter((c) => c.method === 'POST');

describe('cancelling an event from the console (issue 46)', () => {
  it('reason, then the dry run in words, then the cancel (danger) and its result; the view turns cancelled', async () => {
    mount(EDIT);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel event' }));
    const dialog = screen.getByRole('alertdialog', { name: /Cancel Harbour Lights\?/ });
    const reason = within(dialog).getByLabelText('Your words to the holders (optional)');
    expect(reason).toHaveProperty('maxLength', 1000);
    expect(within(dialog).getByText(/how they get their money back/)).toBeTruthy();
    fireEvent.change(reason, { target: { value: REASON } });
    const check = within(dialog).getByRole('button', { name: 'Check what it touches' });
    expect(check.className).not.toContain('btn--danger');
    fireEvent.click(check);

    const found = await within(dialog).findByTestId('cancel-counts');
    expect(found.textContent).toContain('12 tickets stop admitting.');
    expect(found.textContent).toContain('1 holder is e-mailed.');
    expect(found.textContent).toContain('2 resale listings are taken off sale.');
    expect(found.textContent).toContain('0 orders waiting for payment can no longer be paid.');
    expect(found.textContent).toContain('3 exchange queue entries close.');
    expect(found.textContent).toContain('4 wallet passes are updated to say cancelled.');
    expect(cancels()).toEqual([expect.objectContaining({ body: { dryRun: true, reason: REASON } })]);
    // The dry run cancelled nothing: the form is still there (the refund policy box has a Save of its own).
    expect(screen.getByLabelText(STARTS)).toBeTruthy();

    const yes = within(dialog).getByRole('button', { name: 'Cancel the event' });
    expect(yes.className).toContain('btn--danger');
    fireEvent.click(yes);
    const result = await screen.findByTestId('cancel-result');
    expect(result.textContent).toContain('12 tickets no longer admit.');
    expect(result.textContent).toContain('1 holder is being e-mailed.');
    expect(cancels()[1].body).toEqual({ dryRun: false, reason: REASON });

    // The event is read again: cancelled, with the date in its zone and the words; no form, no second cancel.
    const state = await screen.findByTestId('event-cancelled');
    expect(state.textContent).toContain('Cancelled on Sat, 20 Feb');
    expect(state.textContent).toContain(REASON);
    expect(screen.queryByLabelText(STARTS)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel event' })).toBeNull();
  });

  it('Cancel in the box posts nothing; a blank reason is sent as none', async () => {
    mount(EDIT);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel event' }));
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(cancels()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel event' }));
    fireEvent.change(screen.getByLabelText('Your words to the holders (optional)'), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Check what it touches' }));
    await screen.findByTestId('cancel-counts');
    expect(cancels()[0].body).toEqual({ dryRun: true });
  });

  it('an event that has ended offers no cancel, and says why, in both languages', async () => {
    event = { ...base, startsAt: '2026-01-10T09:00:00Z', endsAt: '2026-01-10T13:00:00Z' };
    mount(EDIT);
    expect((await screen.findByTestId('cancel-ended')).textContent).toBe(
      'This event has ended: it can no longer be cancelled.',
    );
    expect(screen.queryByRole('button', { name: 'Cancel event' })).toBeNull();
    cleanup();
    await i18next.changeLanguage('es');
    document.documentElement.lang = 'es';
    mount(EDIT);
    expect((await screen.findByTestId('cancel-ended')).textContent).toBe(
      'Este evento ya terminó: ya no se puede cancelar.',
    );
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('a cancelled event: its views say so without the form or the action; the list marks it without Edit', async () => {
    event = { ...base, cancelledAt: '2027-02-20T01:30:00.000Z', cancelReason: null };
    mount(EDIT);
    const state = await screen.findByTestId('event-cancelled');
    expect(state.textContent).toContain('No words to the holders were given.');
    expect(screen.queryByLabelText(STARTS)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel event' })).toBeNull();
    cleanup();

    mount({ screen: 'events' });
    const card = (await screen.findByRole('heading', { name: /Harbour Lights/ })).closest('article')!;
    expect(within(card).getByText('Cancelled')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: /^Edit/ })).toBeNull();
    expect(within(card).getByRole('button', { name: /^Ticket types/ })).toBeTruthy();
  });

  it("a cancelled event's ticket types and exchange queue: shown without New, Edit or forms, the notice says why", async () => {
    const TYPES: ConsoleRoute = { screen: 'events', event: 'evt-1', view: 'ticket-types' };
    const EXCHANGE: ConsoleRoute = { screen: 'events', event: 'evt-1', view: 'exchange' };
    // The control: the event as it stood had them.
    mount(TYPES);
    await screen.findByText('General Admission');
    expect(screen.getByRole('button', { name: 'New ticket type' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Edit: General Admission' })).toBeTruthy();
    cleanup();
    mount(EXCHANGE);
    expect(await screen.findByRole('form', { name: 'Settings' })).toBeTruthy();
    cleanup();

    event = { ...base, cancelledAt: '2027-02-20T01:30:00.000Z', cancelReason: null };
    for (const route of [
      TYPES,
      { ...TYPES, view: 'ticket-type', type: 'ga' },
      { ...TYPES, view: 'ticket-type', type: null },
    ])
      await (async () => {
        mount(route as ConsoleRoute);
        expect((await screen.findByTestId('event-cancelled')).textContent).toContain(
          'A cancelled event can no longer be changed.',
        );
        await screen.findByText('General Admission');
        expect(screen.queryByRole('button', { name: 'New ticket type' })).toBeNull();
        expect(screen.queryByRole('button', { name: /^Edit/ })).toBeNull();
        expect(screen.queryByLabelText('Name')).toBeNull();
        expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
        cleanup();
      })();
    mount(EXCHANGE);
    expect(await screen.findByTestId('exchange-ga-returned')).toHaveProperty('textContent', '2');
    expect(screen.getByTestId('event-cancelled').textContent).toContain('A cancelled event can no longer be changed.');
    expect(screen.queryByRole('form', { name: 'Settings' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Release/ })).toBeNull();
    cleanup();

    await i18next.changeLanguage('es');
    document.documentElement.lang = 'es';
    mount(TYPES);
    expect((await screen.findByTestId('event-cancelled')).textContent).toContain(
      'Un evento cancelado ya no se puede cambiar.',
    );
    await screen.findByText('General Admission');
    expect(screen.queryByRole('button', { name: /^Editar/ })).toBeNull();
  });

  it('in Spanish: the box, the counts and the state', async () => {
    await i18next.changeLanguage('es');
    document.documentElement.lang = 'es';
    mount(EDIT);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancelar evento' }));
    fireEvent.click(screen.getByRole('button', { name: 'Comprobar a qué afecta' }));
    const found = await screen.findByTestId('cancel-counts');
    expect(found.textContent).toContain('12 entradas dejan de dar acceso.');
    expect(found.textContent).toContain('Se avisa por correo a 1 titular.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar el evento' }));
    expect((await screen.findByTestId('event-cancelled')).textContent).toContain('Cancelado el sáb, 20 feb');
  });
});
