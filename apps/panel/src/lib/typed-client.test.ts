// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { ApiError, BUSY_WAIT_MAX_SECONDS, busyWaitMs, createTypedClient } from './typed-client';
import { jsonResponse, readRequest } from '../test/fetch';

/** A client whose fetch is `handler`; returns it and the requests it saw. */
function clientOf(handler: (url: string) => Response | Promise<Response>, config = {}) {
  const seen: ReturnType<typeof readRequest>[] = [];
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const request = readRequest(input, init);
    seen.push(request);
    return Promise.resolve(handler(request.url));
  });
  return { client: createTypedClient({ fetch: () => fetchMock, ...config }), seen };
}

describe('typed client (issue 43)', () => {
  it('fills and encodes path parameters, writes the defined query values, sends JSON', async () => {
    const { client, seen } = clientOf(() => jsonResponse({ orderIdentifier: 'o', swapType: 'UPGRADE', name: 'n' }));
    await client.POST('/v1/ticket_swap/confirm_swap/{swapIdentifier}', {
      params: { path: { swapIdentifier: 'a/b c' } },
    });
    await client.GET('/v1/org/events', { params: { query: { cursor: 'a &b', when: undefined, limit: 5 } } });
    await client.POST('/v1/mobile/gift/verify', { body: { userTicketId: 7 } });
    expect(seen.map((r) => r.url)).toEqual([
      '/v1/ticket_swap/confirm_swap/a%2Fb%20c',
      '/v1/org/events?cursor=a+%26b&limit=5',
      '/v1/mobile/gift/verify',
    ]);
    expect(seen[2]).toMatchObject({ method: 'POST', body: { userTicketId: 7 } });
    expect(seen[2]?.headers['content-type']).toBe('application/json');
  });

  it('answers 204 with undefined, reads text when asked, sends a FormData as it is', async () => {
    const { client } = clientOf((url) =>
      url.endsWith('/qr') ? new Response('iVBO', { status: 200 }) : new Response(null, { status: 204 }),
    );
    await expect(client.DELETE('/v1/auth/account')).resolves.toBeUndefined();
    await expect(client.GET('/v1/auth/access/qr', { parseAs: 'text' })).resolves.toBe('iVBO');
    const form = new FormData();
    const sent = vi.fn((_: RequestInfo | URL, init?: RequestInit) => {
      expect(init?.body).toBe(form);
      expect(new Headers(init?.headers).has('content-type')).toBe(false);
      return Promise.resolve(jsonResponse({}));
    });
    await createTypedClient({ fetch: () => sent }).POST('/v1/auth/avatar', { body: form });
    expect(sent).toHaveBeenCalledOnce();
  });

  it('maps an error body to one ApiError: message key, status, fields; no answer is status 0', async () => {
    const { client } = clientOf(() =>
      jsonResponse({ message: 'api.validation', fields: { email: 'validation.email' } }, 400),
    );
    const err = await client.GET('/v1/auth/me').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ message: 'api.validation', status: 400, fields: { email: 'validation.email' } });
    const down = createTypedClient({
      fetch: () => () => Promise.reject(new TypeError('Failed to fetch')),
      failedKey: () => 'offline',
    });
    await expect(down.GET('/v1/auth/me')).rejects.toMatchObject({ message: 'offline', status: 0, fields: {} });
    const { client: notJson } = clientOf(() => new Response('<html>', { status: 502 }));
    await expect(notJson.GET('/v1/auth/me')).rejects.toMatchObject({ message: 'request_failed', status: 502 });
  });

  it('adds the surface headers to each try and tries once more when renew says so', async () => {
    let token = 'old';
    const { client, seen } = clientOf(
      () =>
        token === 'new' && seen.length > 1
          ? jsonResponse({ ok: 1 })
          : jsonResponse({ message: 'api.unauthorized' }, 401),
      {
        prepare: (h: Record<string, string>) => (h.authorization = `Bearer ${token}`),
        renew: (sent: Record<string, string>) => {
          expect(sent.authorization).toBe('Bearer old');
          token = 'new';
          return Promise.resolve(true);
        },
      },
    );
    await expect(client.GET('/v1/auth/me')).resolves.toEqual({ ok: 1 });
    expect(seen.map((r) => r.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('aborts a call that gets no answer in time (status 0)', async () => {
    vi.useFakeTimers();
    try {
      const hang = (_: RequestInfo | URL, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      const call = createTypedClient({ fetch: () => hang, timeoutMs: 1000 }).GET('/v1/auth/me');
      const settled = expect(call).rejects.toMatchObject({ message: 'request_failed', status: 0 });
      await vi.advanceTimersByTimeAsync(1000);
      await settled;
    } finally {
      vi.useRealTimers();
    }
  });

  describe('a shed call (503 api.busy, issue 44)', () => {
    /** The API's shed answer: 503 `{ message: 'api.busy' }` with `Retry-After` seconds. */
    const shed = (retryAfter = '2') =>
      new Response(JSON.stringify({ message: 'api.busy' }), {
        status: 503,
        headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
      });

    it('waits the advised seconds (capped, with jitter) before its second try', () => {
      expect(busyWaitMs('2', 0)).toBe(2000);
      expect(busyWaitMs('2', 0.999)).toBe(2999);
      expect(busyWaitMs('5', 0.5)).toBe(6250);
      // A long or missing advice: at most the cap, jitter included; 1 s when there is none.
      expect(busyWaitMs('3600', 0.999)).toBeLessThanOrEqual(BUSY_WAIT_MAX_SECONDS * 1000);
      expect(busyWaitMs('3600', 0)).toBeLessThan(busyWaitMs('3600', 0.999));
      expect(busyWaitMs(null, 0)).toBe(1000);
      expect(busyWaitMs('Wed, 21 Oct 2026 07:28:00 GMT', 0)).toBe(1000);
    });

    it('is sent once more after Retry-After, a POST too, and answers as if it had not been shed', async () => {
      vi.useFakeTimers();
      try {
        let n = 0;
        const { client, seen } = clientOf(() => (n++ === 0 ? shed('2') : jsonResponse({ ok: 1 })), {
          retryBusy: true,
        });
        const call = client.POST('/v1/mobile/gift/verify', { body: { userTicketId: 7 } });
        await vi.advanceTimersByTimeAsync(1999);
        expect(seen).toHaveLength(1);
        await vi.advanceTimersByTimeAsync(1001); // at most 1.5 × 2 s
        await expect(call).resolves.toEqual({ ok: 1 });
        expect(seen.map((r) => [r.method, r.body])).toEqual([
          ['POST', { userTicketId: 7 }],
          ['POST', { userTicketId: 7 }],
        ]);
      } finally {
        vi.useRealTimers();
      }
    });

    it('fails as api.busy when shed twice; never retries another 503, nor when the client or call says not to', async () => {
      vi.useFakeTimers();
      try {
        const twice = clientOf(() => shed('1'), { retryBusy: true });
        const call = twice.client.GET('/v1/auth/me');
        const failed = expect(call).rejects.toMatchObject({ message: 'api.busy', status: 503 });
        await vi.advanceTimersByTimeAsync(1500);
        await failed;
        expect(twice.seen).toHaveLength(2);

        const down = clientOf(() => jsonResponse({ message: 'api.service_unavailable' }, 503), { retryBusy: true });
        await expect(down.client.GET('/v1/auth/me')).rejects.toMatchObject({ message: 'api.service_unavailable' });
        expect(down.seen).toHaveLength(1);
        const plain = clientOf(() => shed('1'));
        await expect(plain.client.GET('/v1/auth/me')).rejects.toMatchObject({ message: 'api.busy' });
        expect(plain.seen).toHaveLength(1);
        const once = clientOf(() => shed('1'), { retryBusy: true });
        await expect(once.client.GET('/v1/auth/me', { retryBusy: false })).rejects.toMatchObject({
          message: 'api.busy',
        });
        expect(once.seen).toHaveLength(1);
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('a call that wants a fresh proof of presence (403 api.auth.step_up_required, issue 47)', () => {
    const refused = () =>
      jsonResponse({ message: 'api.auth.step_up_required', action: 'gift', maxAgeSeconds: 300 }, 403);
    const gift = { body: { userTicketId: 7, username: 'bob#7315' } };

    it('asks the surface for a step-up of the refused action, then sends the same call once more', async () => {
      let n = 0;
      const stepUp = vi.fn(() => Promise.resolve(true));
      const { client, seen } = clientOf(() => (n++ === 0 ? refused() : jsonResponse({ ok: 1 })), { stepUp });
      await expect(client.POST('/v1/mobile/giftTicket', gift)).resolves.toEqual({ ok: 1 });
      expect(stepUp).toHaveBeenCalledExactlyOnceWith('gift');
      expect(seen.map((r) => r.body)).toEqual([gift.body, gift.body]);
    });

    it('fails with the refusal when the person cancels, when refused again, or without a step-up of its own', async () => {
      const cancelled = clientOf(refused, { stepUp: () => Promise.resolve(false) });
      await expect(cancelled.client.POST('/v1/mobile/giftTicket', gift)).rejects.toMatchObject({
        message: 'api.auth.step_up_required',
        status: 403,
      });
      expect(cancelled.seen).toHaveLength(1);
      const stepUp = vi.fn(() => Promise.resolve(true));
      const again = clientOf(refused, { stepUp });
      await expect(again.client.POST('/v1/mobile/giftTicket', gift)).rejects.toMatchObject({ status: 403 });
      expect(again.seen).toHaveLength(2);
      expect(stepUp).toHaveBeenCalledOnce();
      const none = clientOf(refused);
      await expect(none.client.POST('/v1/mobile/giftTicket', gift)).rejects.toMatchObject({ status: 403 });
      expect(none.seen).toHaveLength(1);
    });
  });
});
