// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { client, ApiError, clientHooks } from './api-client';
import { storage } from './storage';
import { fakeApi, jsonResponse } from '../test/fetch';

describe('api client (spec section 4 Token refresh)', () => {
  beforeEach(() => {
    localStorage.clear();
    clientHooks.reload = vi.fn();
  });

  it('two parallel 401s share one refresh, then each retries once', async () => {
    storage.set('accessToken', 'old');
    storage.set('refreshToken', 'r1');
    const calls: string[] = [];
    fakeApi(async ({ url, headers }) => {
      calls.push(url);
      if (url.endsWith('/auth/refresh')) {
        await new Promise((r) => setTimeout(r, 10));
        return jsonResponse({ accessToken: 'new', refreshToken: 'r2' });
      }
      return headers.authorization === 'Bearer new'
        ? jsonResponse({ ok: url.slice(3) })
        : jsonResponse({ message: 'api.unauthorized' }, 401);
    });
    const [a, b] = await Promise.all([client.GET('/v1/auth/me'), client.GET('/v1/config')]);
    expect(a).toEqual({ ok: '/auth/me' });
    expect(b).toEqual({ ok: '/config' });
    expect(calls.filter((c) => c.endsWith('/auth/refresh'))).toHaveLength(1);
    expect(calls.filter((c) => c === '/v1/auth/me')).toHaveLength(2);
    expect(storage.get('refreshToken')).toBe('r2');
  });

  it('a failed refresh clears both tokens and reloads', async () => {
    storage.set('accessToken', 'old');
    storage.set('refreshToken', 'r1');
    fakeApi(({ url }) =>
      url.endsWith('/auth/refresh')
        ? jsonResponse({ message: 'api.auth.token_not_authorized' }, 401)
        : jsonResponse({}, 401),
    );
    await expect(client.GET('/v1/auth/me')).rejects.toBeInstanceOf(ApiError);
    expect(storage.get('accessToken')).toBeNull();
    expect(storage.get('refreshToken')).toBeNull();
    expect(clientHooks.reload).toHaveBeenCalledOnce();
  });

  it('uses tokens another tab already rotated instead of failing', async () => {
    storage.set('accessToken', 'old');
    storage.set('refreshToken', 'r1');
    fakeApi(({ url, headers }) => {
      if (url.endsWith('/auth/refresh')) {
        // The other tab wins the race: it stored r2/new before our refresh is refused.
        storage.set('accessToken', 'new');
        storage.set('refreshToken', 'r2');
        return jsonResponse({ message: 'api.auth.token_not_authorized' }, 401);
      }
      return headers.authorization === 'Bearer new' ? jsonResponse({ ok: true }) : jsonResponse({}, 401);
    });
    expect(await client.GET('/v1/auth/me')).toEqual({ ok: true });
    expect(clientHooks.reload).not.toHaveBeenCalled();
  });

  it('maps error bodies to their message key, and network failures to request_failed', async () => {
    fakeApi(() => jsonResponse({ message: 'gift_tickets.cannot_be_gifted' }, 409));
    await expect(client.GET('/v1/config')).rejects.toMatchObject({
      message: 'gift_tickets.cannot_be_gifted',
      status: 409,
    });
    fakeApi(() => {
      throw new TypeError('offline');
    });
    await expect(client.GET('/v1/config')).rejects.toMatchObject({ message: 'request_failed', status: 0 });
  });

  describe('a shed call (503 api.busy, issue 44)', () => {
    const shed = () =>
      new Response(JSON.stringify({ message: 'api.busy' }), {
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': '1' },
      });

    it('is tried once more after Retry-After, and the person gets the answer', async () => {
      vi.useFakeTimers();
      try {
        let n = 0;
        const api = fakeApi(() => (n++ === 0 ? shed() : jsonResponse({ ok: true })));
        const call = client.GET('/v1/auth/me');
        await vi.advanceTimersByTimeAsync(1500);
        await expect(call).resolves.toEqual({ ok: true });
        expect(api).toHaveBeenCalledTimes(2);
      } finally {
        vi.useRealTimers();
      }
    });

    it('a refresh shed twice keeps the session and fails as api.busy, no reload', async () => {
      vi.useFakeTimers();
      try {
        storage.set('accessToken', 'old');
        storage.set('refreshToken', 'r1');
        const api = fakeApi(({ url }) => (url.endsWith('/auth/refresh') ? shed() : jsonResponse({}, 401)));
        const call = client.GET('/v1/auth/me');
        const failed = expect(call).rejects.toMatchObject({ message: 'api.busy', status: 503 });
        await vi.advanceTimersByTimeAsync(1500);
        await failed;
        expect(api.mock.calls.filter(([u]) => typeof u === 'string' && u.endsWith('/auth/refresh'))).toHaveLength(2);
        expect(storage.get('refreshToken')).toBe('r1');
        expect(storage.get('accessToken')).toBe('old');
        expect(clientHooks.reload).not.toHaveBeenCalled();
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
