// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, clientHooks } from './api-client';
import { storage } from './storage';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('api client (spec section 4 Token refresh)', () => {
  beforeEach(() => {
    localStorage.clear();
    clientHooks.reload = vi.fn();
  });

  it('two parallel 401s share one refresh, then each retries once', async () => {
    storage.set('accessToken', 'old');
    storage.set('refreshToken', 'r1');
    const calls: string[] = [];
    clientHooks.fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const u = String(url);
      calls.push(u);
      if (u.endsWith('/auth/refresh')) {
        await new Promise((r) => setTimeout(r, 10));
        return json(200, { accessToken: 'new', refreshToken: 'r2' });
      }
      const auth = (init?.headers as Record<string, string>).authorization;
      return auth === 'Bearer new' ? json(200, { ok: u }) : json(401, { message: 'api.unauthorized' });
    }) as typeof fetch;
    const [a, b] = await Promise.all([api('/a'), api('/b')]);
    expect(a).toEqual({ ok: '/v1/a' });
    expect(b).toEqual({ ok: '/v1/b' });
    expect(calls.filter((c) => c.endsWith('/auth/refresh'))).toHaveLength(1);
    expect(calls.filter((c) => c === '/v1/a')).toHaveLength(2);
    expect(storage.get('refreshToken')).toBe('r2');
  });

  it('a failed refresh clears both tokens and reloads', async () => {
    storage.set('accessToken', 'old');
    storage.set('refreshToken', 'r1');
    clientHooks.fetch = vi.fn(async (url: RequestInfo | URL) =>
      String(url).endsWith('/auth/refresh') ? json(401, { message: 'api.auth.token_not_authorized' }) : json(401, {}),
    ) as typeof fetch;
    await expect(api('/a')).rejects.toBeInstanceOf(ApiError);
    expect(storage.get('accessToken')).toBeNull();
    expect(storage.get('refreshToken')).toBeNull();
    expect(clientHooks.reload).toHaveBeenCalledOnce();
  });

  it('uses tokens another tab already rotated instead of failing', async () => {
    storage.set('accessToken', 'old');
    storage.set('refreshToken', 'r1');
    clientHooks.fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      if (String(url).endsWith('/auth/refresh')) {
        // The other tab wins the race: it stored r2/new before our refresh is refused.
        storage.set('accessToken', 'new');
        storage.set('refreshToken', 'r2');
        return json(401, { message: 'api.auth.token_not_authorized' });
      }
      return (init?.headers as Record<string, string>).authorization === 'Bearer new'
        ? json(200, { ok: true })
        : json(401, {});
    }) as typeof fetch;
    expect(await api('/a')).toEqual({ ok: true });
    expect(clientHooks.reload).not.toHaveBeenCalled();
  });

  it('maps error bodies to their message key, and network failures to request_failed', async () => {
    clientHooks.fetch = vi.fn(async () => json(409, { message: 'gift_tickets.cannot_be_gifted' })) as typeof fetch;
    await expect(api('/x')).rejects.toMatchObject({ message: 'gift_tickets.cannot_be_gifted', status: 409 });
    clientHooks.fetch = vi.fn(async () => {
      throw new TypeError('offline');
    }) as typeof fetch;
    await expect(api('/x')).rejects.toMatchObject({ message: 'request_failed', status: 0 });
  });
});
