/**
 * The wallet's update jobs (decision 029, "kept true"): after a ticket moved or changed, its Apple passes are voided
 * or re-tagged and their devices pushed (APNs), and its Google objects PATCHed.
 */
import { pickLang } from '../../lib/lang.js';
import { deadPushToken } from '../../providers/apns/apns.provider.js';
import { walletRepository as repo } from './wallet.repository.js';
import { text, type WalletDeps } from './wallet-common.js';
import { googleEventClass, googleValidity } from './google-link.js';

/** The updates part: `appleUpdate` and `googleUpdate` (jobs `wallet.apple_update`, `wallet.google_update`). */
export function createWalletUpdates(deps: Pick<WalletDeps, 'database' | 'config' | 'apns' | 'google' | 'now'>) {
  const { db } = deps.database;
  const apple = deps.config.apple;
  return {
    /**
     * Job `wallet.apple_update` (decision 029, "kept true"): the tickets moved or changed (gift, resale, swap,
     * revocation, a return to the exchange queue and its end). A pass whose holder no longer holds its ticket is voided; one still held (a swap changed its
     * type) gets a new update tag; either way every device registered for it is pushed, so it fetches the pass
     * as it is now. A voided pass is not pushed again, but by a retry of a job (`opts.retry`: its earlier attempt
     * may have voided the pass and then failed to push, e.g. an APNs that timed out, issue 39). A push token
     * APNs calls dead (410 `Unregistered`, 400 `BadDeviceToken`) loses every registration, so it is never pushed
     * again; at most `config.devicesPerPass` devices are pushed per pass.
     * @returns the pushes sent
     */
    async appleUpdate(userTicketIds: number[], opts: { retry?: boolean } = {}): Promise<number> {
      if (!deps.apns || !apple) return 0;
      let pushes = 0;
      for (const pass of await repo.passesOfTickets(db, userTicketIds)) {
        if (pass.voidedAt && !opts.retry) continue;
        // A pass voided already (a retry) is only pushed again.
        if (!pass.voidedAt) {
          const row = await repo.passTicket(db, pass.userTicketId, pass.holderId);
          if (row?.held) await repo.touchPass(db, pass.serialNumber, deps.now());
          else if (!(await repo.voidPass(db, pass.serialNumber, deps.now()))) continue;
        }
        for (const token of await repo.pushTokens(db, pass.serialNumber, deps.config.devicesPerPass)) {
          const answer = await deps.apns.push(token, apple.passTypeId);
          if (deadPushToken(answer)) await repo.dropPushToken(db, token);
          pushes++;
        }
      }
      return pushes;
    },

    /**
     * Job `wallet.google_update` (decision 029, "kept true"): each Google object of the tickets whose holder no
     * longer holds the ticket is PATCHed `state: INACTIVE` (the new holder gets a new object when they save
     * theirs); one still held gets its ticket type and validity (the event's reveal to its end) PATCHed (a swap, a
     * new date), and is `INACTIVE` while returned to the exchange queue, `ACTIVE` again once withdrawn (issue 45);
     * the event class of a held one is written again, once per event, with the event's times (issue 46). Idempotent.
     * @returns the objects PATCHed
     */
    async googleUpdate(userTicketIds: number[]): Promise<number> {
      if (!deps.google) return 0;
      const issuerId = deps.config.google?.issuerId;
      const classesWritten = new Set<number>();
      let patched = 0;
      for (const pass of await repo.passesOfTickets(db, userTicketIds)) {
        if (!pass.googleObjectId) continue;
        const row = await repo.passTicket(db, pass.userTicketId, pass.holderId);
        // The event's class carries its times: written once per event of the job, so a new date shows (issue 46).
        if (row?.held && issuerId && !classesWritten.has(row.event.id)) {
          classesWritten.add(row.event.id);
          await deps.google.api.upsertClass(googleEventClass(row, issuerId));
        }
        await deps.google.api.patchObject(
          pass.googleObjectId,
          row?.held
            ? {
                state: row.returned || row.event.cancelledAt ? 'INACTIVE' : 'ACTIVE',
                ticketType: text(row.ticketName, pickLang(row.holder.locale)),
                validTimeInterval: googleValidity(row.event),
              }
            : { state: 'INACTIVE' },
        );
        patched++;
      }
      return patched;
    },
  };
}
