/**
 * The door's connection to the API: `GET /v1/access/events` and `POST /v1/access/check-in`, both
 * with the scanner key in header `x-scanner-key` (see apps/api check-in.service.ts), through the typed client shared
 * with the panel and the console (lib/typed-client.ts, {@link doorClient}). Every HTTP answer and every network
 * failure becomes a typed outcome; nothing throws.
 *
 * The scanner talks only to a {@link Door}. This one asks the server every time; the offline door
 * (offline-door.ts: a snapshot of the event's admissions and a queue of check-ins synced later) wraps
 * it with the same outcomes.
 */
import type { CheckInResponse, ScannerEvent, ScanDirection } from '@tp/contract/access';
import { ApiError, createTypedClient, type TypedClient } from '../lib/typed-client';

export type { CheckInResponse, ScannerEvent };

/** The answer to "which events can this door admit to?". */
export type EventsOutcome =
  | { kind: 'events'; events: ScannerEvent[] }
  | { kind: 'unauthorized' }
  /** The API shed the call twice (503 `api.busy`, decision 039): asked again after its `Retry-After`. */
  | { kind: 'busy' }
  | { kind: 'failed'; status: number }
  | { kind: 'network' };

/**
 * The answer to a scan. `answered`: the server's verdict (admitted, already used, listed for resale,
 * no ticket), or the offline door's from its snapshot (`offline`, queued to sync; `shed`: decided there because the API
 * shed the check-in, issue 44); `offline_unavailable`:
 * no network and no snapshot or key to admit from (offline-door.ts); `invalid`: not a pass or expired (`api.access.invalid_code`, 400); `unauthorized`: wrong
 * scanner key (401); `event_not_found` (404); `not_for_this_event`: an event the door key does not admit to (403); `not_revealed`: before the event's passRevealAt no pass admits (409); `event_cancelled`: the organiser cancelled the event (409, issue 46); `too_many`: rate limited (429); `busy`: the API shed the check-in (503 `api.busy`).
 */
export type CheckInOutcome =
  | { kind: 'answered'; answer: CheckInResponse; offline?: true; shed?: true }
  | { kind: 'offline_unavailable' }
  | { kind: 'invalid' }
  /** A Google Wallet rotating barcode whose TOTP is not fresh (`api.access.stale_code`, decision 029). */
  | { kind: 'stale' }
  | { kind: 'unauthorized' }
  | { kind: 'event_not_found' }
  | { kind: 'not_for_this_event' }
  | { kind: 'not_revealed' }
  | { kind: 'event_cancelled' }
  | { kind: 'too_many' }
  /** The API shed the call twice (503 `api.busy`, decision 039): asked again after its `Retry-After`. */
  | { kind: 'busy' }
  | { kind: 'failed'; status: number }
  | { kind: 'network' };

/** What the scanner needs from the door's back end. */
export interface Door {
  events(): Promise<EventsOutcome>;
  /**
   * Checks `code` (the pass text, `TP2.…`) in (or out) at event `eventId`; `direction` absent: the door key's mode
   * (issue 48).
   */
  checkIn(code: string, eventId: number, direction?: ScanDirection): Promise<CheckInOutcome>;
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * The headers of every door call: the key (`x-scanner-key`: a door key or the platform key) and the device's
 * stable id (`x-door-device`, for the server's check-in log) when there is one.
 */
export const doorHeaders = (key: string, deviceId?: string): Record<string, string> => ({
  'x-scanner-key': key,
  ...(deviceId ? { 'x-door-device': deviceId } : {}),
});

/**
 * The typed client of a door: every call carries the door's headers and is never cached; no time limit (a door
 * waits for its answer as before); a call the API shed (503 `api.busy`) is sent once more after its `Retry-After`
 * (lib/typed-client.ts `retryBusy`, issue 44). Throws ApiError (status 0: no answer).
 */
export const doorClient = (key: string, fetchImpl: Fetch, deviceId?: string): TypedClient =>
  createTypedClient({
    fetch: () => fetchImpl,
    prepare: (headers) => Object.assign(headers, doorHeaders(key, deviceId)),
    init: { cache: 'no-store' },
    timeoutMs: 0,
    retryBusy: true,
  });

/** A call's answer, or its failure as the HTTP status (0: no answer) and message key. */
export async function attempt<T>(run: () => Promise<T>): Promise<{ ok: T } | { status: number; message: string }> {
  try {
    return { ok: await run() };
  } catch (err) {
    return err instanceof ApiError ? { status: err.status, message: err.message } : { status: 0, message: '' };
  }
}

/**
 * A door that asks the server at `/v1` (same origin) with the door `key` (and device id) on every call. A shed call
 * (503 `api.busy`) is asked again once after the answer's `Retry-After` (at most 10 s) and is `busy` when shed again;
 * with `waitWhenShed` false a shed check-in is `busy` at once (the offline door decides it from its snapshot instead).
 */
export function onlineDoor(
  key: string,
  fetchImpl: Fetch = (input, init) => fetch(input, init),
  deviceId?: string,
  waitWhenShed = true,
): Door {
  const client = doorClient(key, fetchImpl, deviceId);
  return {
    async events() {
      const r = await attempt((): Promise<ScannerEvent[]> => client.GET('/v1/access/events'));
      if ('ok' in r) return { kind: 'events', events: r.ok };
      if (r.status === 0) return { kind: 'network' };
      if (r.status === 401) return { kind: 'unauthorized' };
      if (r.message === 'api.busy') return { kind: 'busy' };
      return { kind: 'failed', status: r.status };
    },
    async checkIn(code, eventId, direction) {
      const r = await attempt((): Promise<CheckInResponse> =>
        client.POST('/v1/access/check-in', {
          body: { code, eventId, ...(direction && { direction }) },
          ...(!waitWhenShed && { retryBusy: false }),
        }),
      );
      if ('ok' in r) return { kind: 'answered', answer: r.ok };
      if (r.message === 'api.busy') return { kind: 'busy' };
      switch (r.status) {
        case 0:
          return { kind: 'network' };
        case 400:
          return r.message === 'api.access.stale_code' ? { kind: 'stale' } : { kind: 'invalid' };
        case 401:
          return { kind: 'unauthorized' };
        case 403:
          return { kind: 'not_for_this_event' };
        case 404:
          return { kind: 'event_not_found' };
        case 409:
          return r.message === 'api.access.event_cancelled' ? { kind: 'event_cancelled' } : { kind: 'not_revealed' };
        case 429:
          return { kind: 'too_many' };
        default:
          return { kind: 'failed', status: r.status };
      }
    },
  };
}
