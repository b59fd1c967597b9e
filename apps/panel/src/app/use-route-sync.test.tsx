/**
 * The router's effects run once however many components read the route: a host `navigate` message
 * or a `navigate()` call is one history entry, one scroll to the top; a redirect replaces the URL.
 */
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { act, cleanup } from '@testing-library/react';
import { EMBED_SOURCE } from '@tp/contract/embed';
import { renderPanel } from '../test/render';

const HOST = 'http://host.test';
let scrollTo: MockInstance<typeof window.scrollTo>;

let signedIn = true;
beforeEach(() => {
  signedIn = true;
  // The bridge reads its embed mode from the URL once, at import: embed the panel, then import.
  window.history.replaceState(null, '', `/en/?embed=modal&hostOrigin=${encodeURIComponent(HOST)}&PANEL_TAB=QR`);
  vi.resetModules();
  scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.restoreAllMocks();
});

/** The root with the router's effects and three screens reading the route, as the panel has. */
async function mountRoot() {
  // Embedded, the access token lives in the storage module's memory (lib/storage, decision 012).
  if (signedIn) (await import('../lib/storage')).storage.set('accessToken', 'token');
  const { useRoute, navigate } = await import('../lib/use-route');
  const { useRouteSync } = await import('./use-route-sync');
  const Reader = () => <span>{useRoute().tab}</span>;
  const Root = () => {
    useRouteSync();
    return (
      <>
        <Reader />
        <Reader />
        <Reader />
      </>
    );
  };
  const push = vi.spyOn(window.history, 'pushState');
  const replace = vi.spyOn(window.history, 'replaceState');
  const view = renderPanel(<Root />);
  scrollTo.mockClear();
  return { navigate, push, replace, view };
}

describe('useRouteSync', () => {
  it('turns a host navigate message into one history entry and one scroll to the top', async () => {
    const { push, view } = await mountRoot();
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: HOST,
          source: window.parent,
          data: { source: EMBED_SOURCE, type: 'navigate', params: { PANEL_TAB: 'MY_TICKET' } },
        }),
      );
    });
    expect(push).toHaveBeenCalledTimes(1);
    expect(String(push.mock.calls[0][2])).toContain('PANEL_TAB=MY_TICKET');
    expect(view.getAllByText('MY_TICKET')).toHaveLength(3);
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('makes one navigation one history entry', async () => {
    const { navigate, push, view } = await mountRoot();
    act(() => navigate({ tab: 'SETTINGS' }));
    expect(push).toHaveBeenCalledTimes(1);
    expect(view.getAllByText('SETTINGS')).toHaveLength(3);
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('writes a redirect of the routing rules into the URL once, without a history entry', async () => {
    signedIn = false;
    const { push, replace, view } = await mountRoot();
    expect(view.getAllByText('LOGIN')).toHaveLength(3);
    expect(replace).toHaveBeenCalledTimes(1);
    expect(String(replace.mock.calls[0][2])).toContain('PANEL_TAB=LOGIN');
    expect(push).not.toHaveBeenCalled();
  });

  it('replaces the entry when the host says so (reopening the modal: opening added the entry)', async () => {
    const { push, replace, view } = await mountRoot();
    replace.mockClear();
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: HOST,
          source: window.parent,
          data: { source: EMBED_SOURCE, type: 'navigate', params: { PANEL_TAB: 'MY_TICKET' }, replace: true },
        }),
      );
    });
    expect(push).not.toHaveBeenCalled();
    expect(replace).toHaveBeenCalledTimes(1);
    expect(view.getAllByText('MY_TICKET')).toHaveLength(3);
  });

  it('counts the entries it pushed (what the host goes back on close) and pushes nothing for the same URL', async () => {
    const { navigate, push } = await mountRoot();
    const { routeDepth } = await import('../lib/use-route');
    expect(routeDepth()).toBe(0);
    act(() => navigate({ tab: 'SETTINGS' }));
    act(() => navigate({ tab: 'MY_TICKET' }));
    act(() => navigate({ tab: 'MY_TICKET' }));
    act(() => navigate({ overlay: 'HUB' }, { replace: true }));
    expect(push).toHaveBeenCalledTimes(2);
    expect(routeDepth()).toBe(2);
  });
});
