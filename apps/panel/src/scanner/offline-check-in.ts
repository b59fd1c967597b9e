/**
 * A scan with no server (issue 10 point 4): the pass verified with the public key alone, judged from the kept
 * snapshot with the server's own rules (`judgeHeldTickets`, `checkInAnswer` from the contract: the entry rules of
 * decision 050 on each ticket's recorded scans, at the door's zone), the scan added to the tickets' history in the
 * snapshot and the check-in queued for the sync.
 */
import type { ScanDirection } from '@tp/contract/access';
import { checkInAnswer, judgeHeldTickets, recordedIds } from '@tp/contract/admission';
import { walletTotpAdmits } from '@tp/contract/wallet-totp';
import type { CheckInOutcome } from './door-api';
import type { QueuedCheckIn } from './offline-door';
import { applyRecord, KEYS, type DoorCore } from './offline-door-core';

/** A scan with no server: verify with the public key, judge from the snapshot, queue what it recorded. */
export async function checkInOffline(
  core: DoorCore,
  code: string,
  eventId: number,
  direction?: ScanDirection,
): Promise<CheckInOutcome> {
  const { deps, get, now, newId, report, saveSnapshot, snapshotOf, store } = core;
  const snap = await snapshotOf(eventId);
  if (!snap?.passPublicKeys.length || !deps.verify) return { kind: 'offline_unavailable' };
  const at = now();
  const keys = { publicKeys: snap.passPublicKeys, ttlSeconds: snap.passTtlSeconds, skewSteps: snap.passSkewSteps };
  const pass = await deps.verify(code, keys, at);
  if (pass === null) return { kind: 'invalid' };
  const holder = snap.holders.find((h) => h.userId === pass.userId);
  if (!holder) return { kind: 'answered', offline: true, answer: checkInAnswer('', [], new Map()) };
  // A Google Wallet rotating barcode must be timely, and fresh by its pass's secret where the snapshot has it
  // (decision 029).
  const secret = holder.walletTotpSecrets?.find((w) => w.userTicketId === pass.userTicketId)?.totpSecret;
  if (pass.totp && !(await walletTotpAdmits(secret, pass.totp, Math.floor(at.getTime() / 1000))))
    return { kind: 'stale' };
  // A wallet pass's ticket code admits its one ticket (decision 029), the holder's other tickets stay out.
  const tickets = holder.tickets.filter((t) => pass.userTicketId === undefined || t.userTicketId === pass.userTicketId);
  const scan = { ...(await core.scanNow(snap, direction)), at: at.toISOString() };
  const verdicts = judgeHeldTickets(tickets, scan);
  const answer = checkInAnswer(holder.holderName, tickets, verdicts);
  const recorded = recordedIds(verdicts);
  const first = recorded.length ? verdicts.get(recorded[0]) : undefined;
  if (first?.ok) {
    applyRecord(snap, new Set(recorded), first.record);
    await saveSnapshot(snap);
    const queue = await get<QueuedCheckIn[]>(KEYS.queue, []);
    queue.push({
      id: newId(),
      eventId,
      holderName: holder.holderName,
      code,
      scannedAt: scan.at,
      userTicketIds: recorded,
      // Only a direction the staff chose: else the server takes the key's mode, which this door may not know yet (a
      // door that never reached GET /access/door judges as an entry door; an exit key's scans must not sync as entries).
      ...(direction && { direction }),
      record: first.record,
    });
    await store.set(KEYS.queue, queue);
  }
  void report();
  return { kind: 'answered', offline: true, answer };
}
