/**
 * Issue 46 (decision 047): the Branding form shows the organisation's reschedule threshold and sends it, as a
 * number, with the brand (PATCH /v1/org/organisation); a value that is not whole minutes from 0 to a week is
 * refused at the field before anything is sent. The API is a stub `fetch`.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { initConsoleI18n } from '../i18n';
import { BrandingForm } from './components/branding-form';

const LABEL = 'New date after a move of more than (minutes)';
const organisation = {
  slug: 'acme',
  name: 'Acme',
  logoUrl: null,
  primaryColor: null,
  websiteUrl: null,
  helpCenterUrl: null,
  appUrl: null,
  rescheduleThresholdMinutes: 60,
};

beforeAll(async () => {
  await initConsoleI18n();
  document.documentElement.lang = 'en';
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderForm() {
  const sent: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init?: RequestInit) => {
      if (init?.method === 'PATCH') sent.push(JSON.parse(init.body as string));
      const body = init?.method === 'PATCH' ? { ...organisation, ...(sent.at(-1) as object) } : organisation;
      return Promise.resolve(
        new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <BrandingForm slug="acme" organisation={organisation} />
    </QueryClientProvider>,
  );
  return sent;
}

describe('the reschedule threshold in the Branding form', () => {
  it('shows the current value and sends a new one as a number', async () => {
    const sent = renderForm();
    const field = screen.getByLabelText(LABEL);
    expect((field as HTMLInputElement).value).toBe('60');
    fireEvent.change(field, { target: { value: '180' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ name: 'Acme', rescheduleThresholdMinutes: 180 });
  });

  it('refuses a value that is not whole minutes from 0 to 10080, sending nothing', async () => {
    const sent = renderForm();
    for (const bad of ['-5', '1.5', '10081', 'soon', '']) {
      fireEvent.change(screen.getByLabelText(LABEL), { target: { value: bad } });
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Whole minutes, 0 to 10080 (a week).')).toBeTruthy();
    }
    expect(sent).toEqual([]);
  });
});
