/**
 * The door routes' key check (decision 030, issue 39): the `x-scanner-key` looked up once per request, wrong keys
 * counted per address with a lockout, and the door devices known to a key let through a lockout of their address.
 */
import type { FastifyRequest } from 'fastify';
import type { App } from '../../lib/http.js';
import { AppError } from '../../lib/app-error.js';
import type { CheckInService, Door, DoorScope } from './check-in.service.js';
import { guessGuard, ipKey } from '../../lib/rate-limit.js';

/** Door devices remembered per key at most, and for how long after their last right key (milliseconds). */
const KNOWN_DEVICES_PER_KEY = 1_000;
const KNOWN_DEVICE_MS = 24 * 3600_000;
/** Keys whose devices are remembered at most (the least recently used key's forgotten first). */
const KNOWN_KEYS_MAX = 10_000;

/**
 * The door devices (`x-door-device` ids) that presented a right key to this instance in the last day, per key (the
 * platform SCANNER_KEY or a door key's id): a device is let through a guesser's lockout of its address only with
 * the very key that made it known (issue 39, fifth re-run: a device id made known by any organisation's door key
 * opened the lockout to guesses of the platform key), and a key can crowd out only its own devices (at most
 * KNOWN_DEVICES_PER_KEY each; the re-run pushed a venue's gate out with 10,001 junk ids of another key). In memory,
 * per instance.
 */
function knownDoorDevices(now: () => number = Date.now) {
  /** The platform key's devices: never crowded out by door keys (sixth re-run: 10,001 door keys pushed it out). */
  const platform = new Map<string, number>();
  const byKey = new Map<number, Map<string, number>>();
  const devicesOf = (scope: DoorScope) => (scope.doorKeyId === null ? platform : byKey.get(scope.doorKeyId));
  return {
    has(scope: DoorScope, deviceId: string): boolean {
      return (devicesOf(scope)?.get(deviceId) ?? 0) > now() - KNOWN_DEVICE_MS;
    },
    add(scope: DoorScope, deviceId: string) {
      let seen = platform;
      if (scope.doorKeyId !== null) {
        seen = byKey.get(scope.doorKeyId) ?? new Map<string, number>();
        byKey.delete(scope.doorKeyId);
        byKey.set(scope.doorKeyId, seen);
        if (byKey.size > KNOWN_KEYS_MAX) byKey.delete(byKey.keys().next().value!);
      }
      seen.delete(deviceId);
      seen.set(deviceId, now());
      if (seen.size > KNOWN_DEVICES_PER_KEY) seen.delete(seen.keys().next().value!);
    },
    /**
     * Forgets a device id under every key: it presented a wrong key while its address was locked out, which a door
     * that holds its key never does (sixth re-run: a known id made the lockout an oracle, 429 for a wrong key and 200
     * for the right one, at full speed). A guesser gets one guess per device id it knows.
     */
    forget(deviceId: string) {
      platform.delete(deviceId);
      for (const seen of byKey.values()) seen.delete(deviceId);
    },
  };
}

/** The `x-door-device` header as logged: 8-64 letters, digits, `-` or `_` (the scanner sends a UUID), else null. */
const deviceIdOf = (value: unknown): string | null =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{8,64}$/.test(value) ? value : null;

/**
 * The door routes' guard for `app`: `preValidation` (a route option) resolves the request's door (scope and device
 * id) or throws `api.access.scanner_unauthorized` (401) after counting the wrong key, or the failures' 429
 * while the address is locked out; `rightKeyOnly` is the rate limits' allowList (wrong keys are counted only by the
 * failures' bucket); `doorOf` gives the door `preValidation` resolved.
 *
 * @param scannerKeyFailures wrong keys per IP per minute before the lockout (config `scannerKeyFailuresPerMinute`)
 */
export function doorGuard(app: App, checkIn: CheckInService, scannerKeyFailures: number) {
  // Door routes count two per-IP buckets: requests with a right key (the platform SCANNER_KEY or a live
  // door key) against the route's own limit (wrong keys are not counted there), and wrong keys against one slow
  // bucket of failures shared by all door routes; past it, the address is locked out (below). The key's scope is
  // looked up once per request (the rate limit's allowList runs first) and the handler gets it from `doorOf`.
  const scopes = new WeakMap<FastifyRequest, Promise<DoorScope | null>>();
  const scopeOf = (req: FastifyRequest) => {
    let scope = scopes.get(req);
    if (!scope) {
      scope = checkIn.scopeOf(req.headers['x-scanner-key']);
      scopes.set(req, scope);
    }
    return scope;
  };
  const rightKeyOnly = async (req: FastifyRequest) => (await scopeOf(req)) === null;
  // Past the failures' limit an address is locked out until the minute ends (guessGuard): every request of it is
  // refused before its key is compared, the right key too, so a 429 tells a guesser nothing (issue 39, fourth
  // re-audit: the right SCANNER_KEY was still answered behind 429s, at full speed). A door device that has
  // presented the same right key to this instance in the last day (`x-door-device`, see knownDoorDevices) is let
  // through the lockout, so a guesser on a venue's Wi-Fi does not stop its gates.
  const guard = guessGuard(
    app.createRateLimit({ max: scannerKeyFailures, timeWindow: '1 minute', keyGenerator: ipKey }),
    'scanner_key_failures',
  );
  const knownDevices = knownDoorDevices();
  const doors = new WeakMap<FastifyRequest, Door>();
  const doorOf = (req: FastifyRequest): Door => doors.get(req)!;
  // preValidation: after the route's rate limit (onRequest), before the body is looked at.
  const preValidation = async (req: FastifyRequest) => {
    const deviceId = deviceIdOf(req.headers['x-door-device']);
    if (guard.locked(req)) {
      // Locked out: only a device known to the very key it presents gets its key looked at; anything else is
      // refused alike, a right key of another scope too, so the 429 tells nothing.
      const scope = deviceId ? await scopeOf(req) : null;
      if (deviceId && !scope) knownDevices.forget(deviceId);
      if (!scope || !deviceId || !knownDevices.has(scope, deviceId)) guard.check(req);
    }
    const scope = await scopeOf(req);
    if (scope) {
      if (deviceId) knownDevices.add(scope, deviceId);
      doors.set(req, { scope, deviceId });
      return;
    }
    await guard.wrong(req);
    throw new AppError('api.access.scanner_unauthorized');
  };
  return { preValidation, rightKeyOnly, doorOf };
}
