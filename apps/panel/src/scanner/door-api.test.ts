import { describe, expect, it, vi } from 'vitest';
import { onlineDoor } from './door-api';

const answer = { holderName: 'Alice', admitted: [], alreadyUsed: [], listedForResale: [] };

/** A fetch that records its calls and answers `status` with `body`. */
function fakeFetch(status: number, body: unknown = {}) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const impl = (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  };
  return { calls, impl };
}

describe('the online door', () => {
  it('sends the scanner key and the check-in body to /v1/access/check-in', async () => {
    const f = fakeFetch(200, answer);
    expect(await onlineDoor('k3y', f.impl).checkIn('TP1.1.2.x', 7)).toEqual({ kind: 'answered', answer });
    expect(f.calls[0].url).toBe('/v1/access/check-in');
    expect(f.calls[0].init?.method).toBe('POST');
    expect(f.calls[0].init?.headers).toMatchObject({ 'x-scanner-key': 'k3y', 'content-type': 'application/json' });
    expect(JSON.parse(f.calls[0].init?.body as string)).toEqual({ code: 'TP1.1.2.x', eventId: 7 });
  });

  it('maps each status of a check-in to its outcome', async () => {
    const outcome = async (status: number) => (await onlineDoor('k', fakeFetch(status).impl).checkIn('c', 1)).kind;
    expect(await outcome(400)).toBe('invalid');
    const stale = fakeFetch(400, { message: 'api.access.stale_code' });
    expect((await onlineDoor('k', stale.impl).checkIn('c', 1)).kind).toBe('stale');
    expect(await outcome(401)).toBe('unauthorized');
    expect(await outcome(404)).toBe('event_not_found');
    expect(await outcome(429)).toBe('too_many');
    expect(await outcome(500)).toBe('failed');
  });

  it('reports a network failure instead of throwing', async () => {
    const door = onlineDoor('k', () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await door.checkIn('c', 1)).toEqual({ kind: 'network' });
    expect(await door.events()).toEqual({ kind: 'network' });
  });

  it('lists events with the key, and tells a wrong key apart', async () => {
    const events = [{ id: 1, name: 'Fest', city: 'Sydney', startsAt: '2026-12-01T08:00:00.000Z' }];
    const f = fakeFetch(200, events);
    expect(await onlineDoor('k', f.impl).events()).toEqual({ kind: 'events', events });
    expect(f.calls[0]).toMatchObject({ url: '/v1/access/events', init: { method: 'GET' } });
    expect(await onlineDoor('k', fakeFetch(401).impl).events()).toEqual({ kind: 'unauthorized' });
    expect(await onlineDoor('k', fakeFetch(503).impl).events()).toEqual({ kind: 'failed', status: 503 });
  });

  it('asks again after Retry-After when the API sheds a call, and says busy when it sheds it twice (issue 44)', async () => {
    vi.useFakeTimers();
    try {
      const shedding = (times: number, ok: unknown) => {
        let n = 0;
        const calls: string[] = [];
        const impl = (url: string) => {
          calls.push(url);
          return Promise.resolve(
            n++ < times
              ? new Response(JSON.stringify({ message: 'api.busy' }), { status: 503, headers: { 'retry-after': '2' } })
              : new Response(JSON.stringify(ok), { status: 200 }),
          );
        };
        return { calls, impl };
      };
      const once = shedding(1, answer);
      const admitted = onlineDoor('k', once.impl).checkIn('c', 1);
      await vi.advanceTimersByTimeAsync(3000);
      expect(await admitted).toEqual({ kind: 'answered', answer });
      expect(once.calls).toHaveLength(2);

      const twice = shedding(2, answer);
      const busy = onlineDoor('k', twice.impl).checkIn('c', 1);
      await vi.advanceTimersByTimeAsync(3000);
      expect(await busy).toEqual({ kind: 'busy' });
      const events = onlineDoor('k', shedding(2, []).impl).events();
      await vi.advanceTimersByTimeAsync(3000);
      expect(await events).toEqual({ kind: 'busy' });

      // Not waiting (the offline door's own check-in): busy at once, one call.
      const atOnce = shedding(1, answer);
      expect(await onlineDoor('k', atOnce.impl, undefined, false).checkIn('c', 1)).toEqual({ kind: 'busy' });
      expect(atOnce.calls).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
