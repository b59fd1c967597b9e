/**
 * Issue 48: a ticket type's entry rules in the console's type form against a stub API: a two-day event offers its two
 * event-local days (in its time zone) as checkboxes, a one-day event none; the entries select and the zones typed as
 * tags are sent as `entryRules` of the PUT; rules left as they were are not sent (absent keeps them), rules cleared
 * are sent as null; the saved rules fill the form; the API's invalid rules show at the zones.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { EntryRules } from '@tp/contract/entry-rules';
import { initConsoleI18n } from '../../i18n';
import { jsonResponse as json } from '../../../test/fetch';
import { aConsoleEvent } from '../../../test/fixtures';
import type { TicketTypeItem } from '../api/ticket-types.api';
import { TicketTypeForm } from './ticket-type-form';

// Fri 9 July 2027 18:00 to Sun 11 July 01:00 in Sydney (UTC+10): the days 9, 10 and 11 July.
const festival = aConsoleEvent({ startsAt: '2027-07-09T08:00:00Z', endsAt: '2027-07-10T15:00:00Z' });
// 20:00 to midnight sharp (UTC+11): one day, 1 March.
const oneNight = aConsoleEvent();

const aType = (entryRules: EntryRules | null): TicketTypeItem => ({
  externalId: 'ga',
  eventExternalId: 'evt-1',
  name: 'General',
  description: null,
  priceCents: 5_000,
  currency: 'AUD',
  resaleCapCents: 5_000,
  isGiftable: true,
  isResellable: true,
  isSwappable: false,
  stock: 0,
  swapTargets: [],
  entryRules,
});

let puts: { url: string; body: Record<string, unknown> }[];
let answer: () => Response;

beforeAll(async () => {
  await initConsoleI18n();
  document.documentElement.lang = 'en';
});
beforeEach(() => {
  puts = [];
  answer = () => json({ externalId: 'ga', status: 'created' });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      if (init?.method === 'PUT' && typeof init.body === 'string') {
        puts.push({ url, body: JSON.parse(init.body) as Record<string, unknown> });
        return Promise.resolve(answer());
      }
      return Promise.resolve(json({ items: [], nextCursor: null }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const mount = (event = festival, type: TicketTypeItem | null = null) => {
  const onDone = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <TicketTypeForm event={event} type={type} others={[]} onDone={onDone} />
    </QueryClientProvider>,
  );
  return onDone;
};
const entries = () => screen.getByLabelText<HTMLSelectElement>('Entries');
const day = (name: string) => screen.getByRole<HTMLInputElement>('checkbox', { name });
const zoneInput = () => screen.getByLabelText('Zones');
const addZone = (name: string) => {
  fireEvent.change(zoneInput(), { target: { value: name } });
  fireEvent.click(screen.getByRole('button', { name: 'Add zone' }));
};

const fillNew = () => {
  fireEvent.change(screen.getByLabelText('Your ticket type id'), { target: { value: 'ga' } });
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'General' } });
  fireEvent.change(screen.getByLabelText('Price'), { target: { value: '50' } });
};
const save = async (onDone: () => void) => {
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(onDone).toHaveBeenCalled());
  expect(puts).toHaveLength(1);
  return puts[0].body;
};

describe("a ticket type's entry rules in the console (issue 48)", () => {
  it("offers the event's local days; a new type left at the defaults sends no rules", async () => {
    const onDone = mount();
    const days = within(screen.getByTestId('entry-days'));
    expect(days.getAllByRole('checkbox').map((c) => c.closest('label')?.textContent?.trim())).toEqual([
      'Fri, 9 July',
      'Sat, 10 July',
      'Sun, 11 July',
    ]);
    expect(screen.getByText(/Australia\/Sydney/)).toBeTruthy();
    expect(entries().value).toBe('once');
    fillNew();
    const body = await save(onDone);
    expect(body).not.toHaveProperty('entryRules');
  });

  it('a 2-day pass with re-entry and a VIP zone is sent as entryRules', async () => {
    const onDone = mount();
    fillNew();
    fireEvent.click(day('Sat, 10 July'));
    fireEvent.click(day('Sun, 11 July'));
    fireEvent.change(entries(), { target: { value: 'reentry' } });
    expect(screen.getByText(/scanned out at an exit door, they can come back in/)).toBeTruthy();
    addZone('VIP');
    await screen.findByRole('button', { name: 'Remove zone VIP' });
    // Several at once, a repeat dropped; Enter adds without saving; a tag removed is not sent.
    fireEvent.change(zoneInput(), { target: { value: 'Backstage, VIP, Bar' } });
    fireEvent.keyDown(zoneInput(), { key: 'Enter' });
    expect(puts).toHaveLength(0);
    await waitFor(() =>
      expect(
        within(screen.getByTestId('zone-tags'))
          .getAllByRole('listitem')
          .map((li) => li.firstChild?.textContent),
      ).toEqual(['VIP', 'Backstage', 'Bar']),
    );
    expect(zoneInput()).toHaveProperty('value', '');
    fireEvent.click(screen.getByRole('button', { name: 'Remove zone Bar' }));
    // A name typed and not added is saved with the others.
    fireEvent.change(zoneInput(), { target: { value: ' Lounge ' } });
    const body = await save(onDone);
    expect(body.entryRules).toEqual({
      days: ['2027-07-10', '2027-07-11'],
      entries: 'reentry',
      zones: ['VIP', 'Backstage', 'Lounge'],
    });
  });

  it('a zone name too long is refused at the input, added or saved', async () => {
    mount();
    fillNew();
    addZone('x'.repeat(41));
    expect(await screen.findByText('A zone name has at most 40 characters.')).toBeTruthy();
    expect(screen.queryByTestId('zone-tags')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(document.activeElement).toBe(zoneInput()));
    expect(puts).toHaveLength(0);
  });

  it("a type's saved rules fill the form; unchanged they are not sent, cleared they are sent as null", async () => {
    const rules: EntryRules = { days: ['2027-07-10'], entries: 'once_per_day', zones: ['VIP'] };
    let onDone = mount(festival, aType(rules));
    expect(entries().value).toBe('once_per_day');
    expect(day('Sat, 10 July').checked).toBe(true);
    expect(day('Fri, 9 July').checked).toBe(false);
    expect(screen.getByRole('button', { name: 'Remove zone VIP' })).toBeTruthy();
    expect((await save(onDone)).entryRules).toBeUndefined();
    cleanup();

    puts = [];
    onDone = mount(festival, aType(rules));
    fireEvent.click(day('Sat, 10 July'));
    fireEvent.change(entries(), { target: { value: 'once' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove zone VIP' }));
    expect((await save(onDone)).entryRules).toBeNull();
  });

  it('a one-day event offers no days; a day the rules name outside the event (it moved) can still be unticked', async () => {
    mount(oneNight);
    expect(screen.queryByTestId('entry-days')).toBeNull();
    cleanup();

    const onDone = mount(oneNight, aType({ days: ['2027-02-27'], entries: 'once' }));
    expect(day('Sat, 27 Feb').checked).toBe(true);
    expect(day('Mon, 1 Mar').checked).toBe(false);
    fireEvent.click(day('Sat, 27 Feb'));
    expect((await save(onDone)).entryRules).toBeNull();
  });

  it("the API's invalid rules show at the zones", async () => {
    answer = () => json({ message: 'api.invalid_request_body', fields: { 'entryRules.zones.0': ['Too big'] } }, 400);
    mount();
    fillNew();
    addZone('VIP');
    await screen.findByRole('button', { name: 'Remove zone VIP' });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('Zones: at most 20, each 1 to 40 characters, no repeats; at most 31 days.'),
    ).toBeTruthy();
  });
});
