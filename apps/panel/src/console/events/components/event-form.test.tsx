/**
 * Issue 46: the event form tells the organiser, before saving a change of the event's time or place, how many holders
 * will be e-mailed (GET /v1/org/events/{externalId}/holders) and lets them choose ("E-mail the holders about this
 * change", checked by default), sent as PUT …?notify=false when unchecked. A change of neither asks nothing.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { initConsoleI18n } from '../../i18n';
import { EventForm } from './event-form';
import { jsonResponse as json } from '../../../test/fetch';
import { aConsoleEvent } from '../../../test/fixtures';

const event = aConsoleEvent();

type Call = { method: string; url: string };
let calls: Call[];
/** The stub's answer to the holders' count. */
let holders: () => Response;

beforeAll(async () => {
  await initConsoleI18n();
  document.documentElement.lang = 'en';
});
beforeEach(() => {
  calls = [];
  holders = () => json({ holders: 3 });
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url: input });
      const route = `${method} ${input.split('?')[0]}`;
      if (route === 'GET /v1/org/events/evt-1/holders') return Promise.resolve(holders());
      if (route === 'PUT /v1/org/events/evt-1')
        return Promise.resolve(json({ externalId: 'evt-1', status: 'updated' }));
      return Promise.resolve(json({ message: 'api.not_found' }, 404));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const mount = (onDone = vi.fn()) => {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <EventForm event={event} onDone={onDone} />
    </QueryClientProvider>,
  );
  return onDone;
};
const starts = () => screen.getByLabelText("Starts (event's local time)");
const box = () => screen.queryByRole('checkbox', { name: 'E-mail the holders about this change' });
const puts = () => calls.filter((c) => c.method === 'PUT');
const holderReads = () => calls.filter((c) => c.url.startsWith('/v1/org/events/evt-1/holders'));

describe('the event form announces a change of time or place (issue 46)', () => {
  it('a new start: shows the count and the box, checked; saved with it checked, the PUT tells the holders', async () => {
    const onDone = mount();
    expect(screen.queryByText(/will be told by e-mail/)).toBeNull();
    fireEvent.change(starts(), { target: { value: '2027-03-01T21:00' } });
    expect(await screen.findByText('3 holders will be told by e-mail.')).toBeTruthy();
    expect(box()).toHaveProperty('checked', true);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(puts()).toHaveLength(1);
    expect(puts()[0].url).not.toContain('notify');
  });

  it('unchecked, the text says nobody is told and the PUT sends notify=false', async () => {
    const onDone = mount();
    fireEvent.change(screen.getByLabelText('Venue'), { target: { value: 'The Cutaway' } });
    await screen.findByText('3 holders will be told by e-mail.');
    fireEvent.click(box()!);
    expect(screen.getByText('3 holders will not be told about this change.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(puts()[0].url).toBe('/v1/org/events/evt-1?notify=false');
  });

  it('a change of the name only asks nothing and shows nothing; changing the start back hides the notice', async () => {
    mount();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Harbour Lights II' } });
    fireEvent.change(starts(), { target: { value: '2027-03-01T21:00' } });
    await screen.findByText('3 holders will be told by e-mail.');
    fireEvent.change(starts(), { target: { value: '2027-03-01T20:00' } });
    await waitFor(() => expect(box()).toBeNull());
    expect(screen.queryByText(/will be told by e-mail/)).toBeNull();
    expect(holderReads()).toHaveLength(1);
  });

  it('one holder, none, or a failed count: the singular, "nobody" without the box, the error with Try again', async () => {
    holders = () => json({ holders: 1 });
    mount();
    fireEvent.change(starts(), { target: { value: '2027-03-01T21:00' } });
    expect(await screen.findByText('1 holder will be told by e-mail.')).toBeTruthy();
    cleanup();

    holders = () => json({ holders: 0 });
    mount();
    fireEvent.change(starts(), { target: { value: '2027-03-01T21:00' } });
    expect(await screen.findByText('Nobody holds a ticket yet: no e-mail will be sent.')).toBeTruthy();
    expect(box()).toBeNull();
    cleanup();

    holders = () => json({ message: 'api.service_unavailable' }, 503);
    mount();
    fireEvent.change(starts(), { target: { value: '2027-03-01T21:00' } });
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
    // The organiser can still choose: the box is there, checked.
    expect(box()).toHaveProperty('checked', true);
  });
});
