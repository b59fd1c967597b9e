// @vitest-environment jsdom
/**
 * Embedded (decision 012): the tokens stay out of localStorage, and with no access token in memory the
 * session comes back from the refresh cookie (a body without a token), restored before the first render.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(() => {
  localStorage.clear();
  // The bridge reads its embed mode from the URL once, at import: embed the panel, then import.
  window.history.replaceState(null, '', `/en/?embed=modal&hostOrigin=${encodeURIComponent('http://host.test')}`);
  vi.resetModules();
});
afterEach(() => {
  window.history.replaceState(null, '', '/');
});

describe('the embedded session', () => {
  it('is restored from the refresh cookie and keeps no token in localStorage', async () => {
    const { fakeApi, jsonResponse } = await import('../test/fetch');
    const bodies: unknown[] = [];
    fakeApi(({ url, body }) => {
      bodies.push(body);
      return url.endsWith('/auth/refresh')
        ? jsonResponse({ accessToken: 'a2', refreshToken: 'r2' })
        : jsonResponse({ message: 'api.not_found' }, 404);
    });
    const { startEmbedded } = await import('./embed-dialog');
    const { storage } = await import('./storage');
    await startEmbedded();
    expect(bodies).toEqual([{}]);
    expect(storage.get('accessToken')).toBe('a2');
    expect(storage.get('refreshToken')).toBeNull();
    expect(Object.keys(localStorage)).toEqual([]);
  });

  it('stays signed out when the cookie is refused', async () => {
    const { fakeApi, jsonResponse } = await import('../test/fetch');
    fakeApi(() => jsonResponse({ message: 'api.auth.token_not_authorized' }, 401));
    const { startEmbedded } = await import('./embed-dialog');
    const { storage } = await import('./storage');
    await startEmbedded();
    expect(storage.get('accessToken')).toBeNull();
  });
});
