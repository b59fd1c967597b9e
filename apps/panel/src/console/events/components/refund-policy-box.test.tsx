/**
 * Issue 46: an event's refund policy in the console against a stub API: the saved policy fills the form (its dates as
 * wall times in the event's zone); each mode shows the date it takes; a date typed in the event's zone is sent as UTC;
 * a mode that needs a date asks for it before anything is sent; the API's field errors show at their field.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { RefundPolicy } from '@tp/contract/refunds';
import { initConsoleI18n } from '../../i18n';
import { RefundPolicyBox } from './refund-policy-box';
import { jsonResponse as json } from '../../../test/fetch';
import { aConsoleEvent } from '../../../test/fixtures';

const event = aConsoleEvent();

let calls: { method: string; url: string; body: unknown }[];
let answer: (body: { mode: string; until?: string; deadline?: string }) => Response;

beforeAll(async () => {
  await initConsoleI18n();
  document.documentElement.lang = 'en';
});
beforeEach(() => {
  calls = [];
  answer = (b) => json({ mode: b.mode, until: b.until ?? null, deadline: b.deadline ?? null });
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      type Body = { mode: string; until?: string; deadline?: string };
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Body) : undefined;
      calls.push({ method: init?.method ?? 'GET', url, body });
      if (init?.method === 'PUT' && url === '/v1/org/events/evt-1/refund-policy')
        return Promise.resolve(answer(body ?? { mode: '' }));
      return Promise.resolve(json({ message: 'api.not_found' }, 404));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const mount = (refundPolicy?: RefundPolicy) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RefundPolicyBox event={{ ...event, refundPolicy }} />
    </QueryClientProvider>,
  );
const form = () => screen.getByRole('form', { name: 'Refund policy' });
const mode = () => within(form()).getByLabelText('Holders may ask');
const save = () => fireEvent.click(within(form()).getByRole('button', { name: 'Save' }));

describe("an event's refund policy in the console", () => {
  it("sends a date typed in the event's zone as UTC, and says it saved", async () => {
    mount();
    expect((mode() as HTMLSelectElement).value).toBe('none');
    expect(within(form()).queryByLabelText('Last moment to ask')).toBeNull();
    fireEvent.change(mode(), { target: { value: 'until' } });
    fireEvent.change(await within(form()).findByLabelText('Last moment to ask'), {
      target: { value: '2027-02-20T18:00' },
    });
    save();
    await within(form()).findByText('Refund policy saved.');
    // 18:00 in Sydney in February (AEDT, UTC+11) is 07:00 UTC.
    expect(calls).toEqual([
      {
        method: 'PUT',
        url: '/v1/org/events/evt-1/refund-policy',
        body: { mode: 'until', until: '2027-02-20T07:00:00.000Z' },
      },
    ]);
  });

  it('fills in the saved policy; a new date needs its deadline before anything is sent; cancelled takes none', async () => {
    mount({ mode: 'on_reschedule', until: null, deadline: '2027-04-20T13:59:00.000Z' });
    expect((mode() as HTMLSelectElement).value).toBe('on_reschedule');
    const deadline = within(form()).getByLabelText<HTMLInputElement>('Deadline to ask');
    expect(deadline.value).toBe('2027-04-20T23:59');
    fireEvent.change(deadline, { target: { value: '' } });
    save();
    await within(form()).findByText('Required');
    expect(calls).toHaveLength(0);
    fireEvent.change(mode(), { target: { value: 'on_cancel' } });
    save();
    await within(form()).findByText('Refund policy saved.');
    expect(calls.map((c) => c.body)).toEqual([{ mode: 'on_cancel' }]);
  });

  it("shows the API's field error at its field", async () => {
    answer = () => json({ message: 'api.invalid_request_body', fields: { until: ['Invalid ISO datetime'] } }, 400);
    mount();
    fireEvent.change(mode(), { target: { value: 'until' } });
    fireEvent.change(await within(form()).findByLabelText('Last moment to ask'), {
      target: { value: '2027-02-20T18:00' },
    });
    save();
    await within(form()).findByText("Enter the last moment to ask, in the event's time zone.");
  });
});
