/**
 * The door's scope (issue 20 point 4): who is scanning (the platform SCANNER_KEY, every event, or an organisation's
 * door key, its events or the ones it was made for), the events a door sees, and whether an event is in its scope.
 * Shared by online check-in, admissions and offline sync.
 */
import type { access } from '@tp/contract';
import type { VerifiedPass } from '@tp/contract/pass-code';
import { sameSecret } from '../../lib/secrets.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { Metrics } from '../../lib/metrics.js';
import { accessRepository as repo } from './access.repository.js';

/**
 * What the key a door presented admits to: the platform key (`doorKeyId` null, every event) or an
 * organisation's door key (its events, or only `eventIds`); its `name` (null: the platform key), `mode` and `zone`
 * (issue 48: the direction of its scans unless they say, and the zone the entry rules judge them at).
 */
export interface DoorScope {
  doorKeyId: number | null;
  organisationId: number | null;
  eventIds: number[] | null;
  name: string | null;
  mode: access.DoorMode;
  zone: string | null;
}
/** The platform SCANNER_KEY's scope: every event, an entry door of no zone. */
export const PLATFORM_SCOPE: DoorScope = {
  doorKeyId: null,
  organisationId: null,
  eventIds: null,
  name: null,
  mode: 'entry',
  zone: null,
};

/** Who is scanning: the key's scope and the device's stable id (header `x-door-device`, or null). */
export interface Door {
  scope: DoorScope;
  deviceId: string | null;
}

/** The check-in service's dependencies (each part takes them). */
export interface CheckInDeps {
  database: Database;
  /** The scanner key door staff must present (config `scannerKey`). */
  scannerKey: string;
  /**
   * Checks a scanned pass with the public keys (AccessService.verifyCode) as of `at` (default now; a
   * synced offline scan's time): what it says, or null.
   */
  verifyCode: (text: string, at?: Date) => Promise<VerifiedPass | null>;
  /** True when a device code's sign-in session is neither revoked nor ended (AccessService.sessionIsLive). */
  sessionIsLive: (sessionId: string, userId: number) => Promise<boolean>;
  /**
   * What verifies passes with no server (AccessService.passKeys): raw Ed25519 public keys (base64url,
   * current first), the time step (seconds) and the device-code skew allowance (steps).
   */
  passKeys: () => Promise<{ publicKeys: string[]; ttl: number; skewSteps: number }>;
  /** What a door key (`tpd_…`) admits to, or null when it is not a live one (DoorKeysService.scopeOf). */
  doorKeyScope: (key: string) => Promise<(Omit<DoorScope, 'doorKeyId'> & { doorKeyId: number }) | null>;
  /** Counts each judged check-in (`tp_check_ins_total`, decision 031). */
  metrics: Pick<Metrics, 'checkIn'>;
  now: () => Date;
}

/** The door scope part: `isScannerKey`, `scopeOf`, `events` (routes) and `eventInScope` (the other parts). */
export function createDoorScope(deps: Pick<CheckInDeps, 'database' | 'scannerKey' | 'doorKeyScope' | 'now'>) {
  const { db } = deps.database;
  /**
   * The event (id, organisation, `passRevealAt`) when it exists and is in the door's scope.
   * @param onRefused run (e.g. logged) before `api.access.not_for_this_event` is thrown.
   * @throws AppError `api.access.event_not_found` (404), `api.access.not_for_this_event` (403).
   */
  async function eventInScope(eventId: number, scope: DoorScope, onRefused?: () => Promise<void>) {
    const event = await repo.event(db, eventId);
    if (!event) throw new AppError('api.access.event_not_found');
    const inScope =
      (scope.organisationId === null || scope.organisationId === event.organisationId) &&
      (scope.eventIds === null || scope.eventIds.includes(eventId));
    if (inScope) return event;
    await onRefused?.();
    throw new AppError('api.access.not_for_this_event');
  }

  const doorScope = {
    /** True when an `x-scanner-key` header value is the scanner key (compared in constant time). */
    isScannerKey(key: unknown): boolean {
      return typeof key === 'string' && sameSecret(key, deps.scannerKey);
    },

    /**
     * The scope of an `x-scanner-key` value: the platform key's (every event), a live door key's, or null
     * for anything else.
     */
    async scopeOf(key: unknown): Promise<DoorScope | null> {
      if (typeof key !== 'string' || key.length === 0) return null;
      if (doorScope.isScannerKey(key)) return PLATFORM_SCOPE;
      return deps.doorKeyScope(key);
    },

    /** GET /access/events: the events of the door's scope not over yet, soonest start first; `startsAt` ISO 8601 UTC. */
    async events(scope: DoorScope = PLATFORM_SCOPE): Promise<access.ScannerEvent[]> {
      const rows = await repo.eventsEndingAfter(db, deps.now(), scope);
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        city: r.city,
        startsAt: r.startsAt.toISOString(),
        timeZone: r.timeZone,
      }));
    },

    /** GET /access/door: the door key's name (null: the platform key), mode and zone (issue 48). */
    door(scope: DoorScope = PLATFORM_SCOPE): access.DoorInfo {
      return { name: scope.name, mode: scope.mode, zone: scope.zone };
    },

    eventInScope,
  };
  return doorScope;
}
export type DoorScopes = ReturnType<typeof createDoorScope>;
