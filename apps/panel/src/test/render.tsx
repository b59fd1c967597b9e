/**
 * The one render helper of the panel's unit tests: the component under test inside the providers the
 * panel's root gives it (main.tsx): i18n (the en catalogue, loaded before the file's tests), a TanStack
 * Query client with the panel's defaults (retries off, so a failure shows at once), and the
 * query-parameter router at a given URL.
 */
import type { ReactElement, ReactNode } from 'react';
import { act, render } from '@testing-library/react';
import { QueryClientProvider, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { beforeAll } from 'vitest';
import { createQueryClient } from '../lib/query-client';
import { initI18n, loadLaterTexts } from '../lib/i18n';

export interface RenderPanelOptions {
  /** The query string the router reads, e.g. `PANEL_TAB=GIFT&USER_TICKET_ID=7`; absent keeps the URL. */
  search?: string;
  /** The query client (default: the panel's, retries off). */
  queryClient?: QueryClient;
  /** Cache entries present before the first render: `[queryKey, data]` (keys from lib/query-keys). */
  data?: [QueryKey, unknown][];
}

// i18n: every test file that renders through this helper has the English catalogues (main and later) loaded first.
beforeAll(async () => {
  await initI18n('en');
  await loadLaterTexts();
});

/** The panel's query client with retries off. */
export function createTestQueryClient(): QueryClient {
  const queryClient = createQueryClient();
  const defaults = queryClient.getDefaultOptions();
  queryClient.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, retry: false } });
  return queryClient;
}

/** Renders `ui` inside the panel's providers; returns Testing Library's result and the query client. */
export function renderPanel(ui: ReactElement, options: RenderPanelOptions = {}) {
  if (options.search !== undefined) {
    window.history.replaceState(null, '', `${window.location.pathname}?${options.search}`);
  }
  const queryClient = options.queryClient ?? createTestQueryClient();
  for (const [key, value] of options.data ?? []) queryClient.setQueryData(key, value);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return Object.assign(render(ui, { wrapper }), { queryClient });
}

/**
 * Runs `fn` (a click, a change) inside an async `act`, so the promises it starts (a mutation, a fetch)
 * settle and their renders happen before the test goes on.
 */
export async function settle(fn: () => void): Promise<void> {
  await act(() => {
    fn();
    return Promise.resolve();
  });
}
