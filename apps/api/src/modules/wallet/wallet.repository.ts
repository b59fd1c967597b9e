/**
 * SQL of wallet passes (issue 22): one held ticket with what its pass shows, the issued passes
 * (`wallet_passes`) and the devices registered for their updates (`wallet_apple_registrations`).
 */
import type { EntryRules } from '@tp/contract/entry-rules';
import { and, desc, eq, gt, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { heldBy, ticketIsReturned, type Holder } from '../../db/predicates.js';
import {
  events,
  organisations,
  ticketTypes,
  users,
  userTickets,
  walletAppleRegistrations,
  walletPasses,
} from '../../db/schema.js';

/** A held ticket as its wallet pass shows it. */
export interface WalletTicketRow {
  userTicketId: number;
  holderId: number;
  /** The holder's name parts and account language (`users.locale`: the pass's labels are in it, issue 40). */
  holder: {
    givenName: string | null;
    familyName: string | null;
    nickname: string;
    usernameSuffix: number;
    locale: string;
  };
  ticketName: string;
  /** The type's entry rules (issue 48; null: one entry, any day, any zone): its pass names the days and zones. */
  entryRules: EntryRules | null;
  event: typeof events.$inferSelect;
  organisationName: string;
  /** `#rrggbb` or null. */
  primaryColor: string | null;
  /**
   * True while the ticket is returned to its event's exchange queue (issue 45, decision 042): it stays the holder's
   * but does not admit, so its pass shows no code (Apple) or is inactive (Google) until it is withdrawn or the queue
   * closes unsold.
   */
  returned: boolean;
}

/** An issued pass (a `wallet_passes` row). */
export type WalletPassRow = typeof walletPasses.$inferSelect;

const ticketColumns = {
  userTicketId: userTickets.id,
  holderId: users.id,
  holder: {
    givenName: users.givenName,
    familyName: users.familyName,
    nickname: users.nickname,
    usernameSuffix: users.usernameSuffix,
    locale: users.locale,
  },
  ticketName: ticketTypes.name,
  entryRules: ticketTypes.entryRules,
  event: events,
  organisationName: organisations.name,
  primaryColor: organisations.primaryColor,
  returned: ticketIsReturned(userTickets.id),
};

/** First key of the two-key advisory lock on one Apple device's registrations (ASCII "wdev"). */
const DEVICE_LOCK_SPACE = 0x77646576;

export const walletRepository = {
  /**
   * A pass's ticket as its pass shows it, for the pass's holder `holderId` whether or not they still hold it,
   * with `held`: true while that holder holds it and it is not revoked.
   */
  async passTicket(
    db: DbOrTx,
    userTicketId: number,
    holderId: number,
  ): Promise<(WalletTicketRow & { held: boolean }) | undefined> {
    const [row] = await db
      .select({ ...ticketColumns, currentHolderId: userTickets.holderId, revokedAt: userTickets.revokedAt })
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .innerJoin(organisations, eq(organisations.id, events.organisationId))
      .innerJoin(users, eq(users.id, holderId))
      .where(eq(userTickets.id, userTicketId));
    if (!row) return undefined;
    const { currentHolderId, revokedAt, ...ticket } = row;
    return { ...ticket, held: currentHolderId === holderId && revokedAt === null };
  },

  /** The pass of `serialNumber`, or undefined. */
  async pass(db: DbOrTx, serialNumber: string): Promise<WalletPassRow | undefined> {
    const [row] = await db.select().from(walletPasses).where(eq(walletPasses.serialNumber, serialNumber));
    return row;
  },

  /** Inserts the pass unless its serial exists; answers the stored row (the existing one on conflict). */
  async ensurePass(
    db: DbOrTx,
    pass: Pick<
      WalletPassRow,
      'serialNumber' | 'userTicketId' | 'holderId' | 'authenticationToken' | 'totpSecret' | 'updatedAt'
    >,
  ): Promise<WalletPassRow> {
    await db.insert(walletPasses).values(pass).onConflictDoNothing();
    const [row] = await db.select().from(walletPasses).where(eq(walletPasses.serialNumber, pass.serialNumber));
    return row;
  },

  /** Records that the pass was added to Google Wallet as object `googleObjectId`. */
  async setGoogleObject(db: DbOrTx, serialNumber: string, googleObjectId: string): Promise<void> {
    await db.update(walletPasses).set({ googleObjectId }).where(eq(walletPasses.serialNumber, serialNumber));
  },

  /** The passes issued for these tickets (voided or not). */
  async passesOfTickets(db: DbOrTx, userTicketIds: number[]): Promise<WalletPassRow[]> {
    if (!userTicketIds.length) return [];
    return db.select().from(walletPasses).where(inArray(walletPasses.userTicketId, userTicketIds));
  },

  /** Marks the pass voided at `at` (its update tag moves to `at`); answers false when it already was. */
  async voidPass(db: DbOrTx, serialNumber: string, at: Date): Promise<boolean> {
    const rows = await db
      .update(walletPasses)
      .set({ voidedAt: at, updatedAt: at })
      .where(and(eq(walletPasses.serialNumber, serialNumber), isNull(walletPasses.voidedAt)))
      .returning({ serialNumber: walletPasses.serialNumber });
    return rows.length > 0;
  },

  /** Moves the pass's update tag to `at` (its content changed, e.g. a swapped ticket type). */
  async touchPass(db: DbOrTx, serialNumber: string, at: Date): Promise<void> {
    await db.update(walletPasses).set({ updatedAt: at }).where(eq(walletPasses.serialNumber, serialNumber));
  },

  /**
   * Registers a device for a pass's pushes (or updates its push token) within the caps, in the caller's
   * transaction; answers true when the registration is new. With `lock` (always, but for a test's control) it
   * first locks the pass's row and takes a transaction advisory lock on the device id (always in that order, so
   * two registrations never wait on each other in a cycle): registrations of one pass, and of one device, run one
   * after another, and the eviction below sees every row the cap counts. Then, keeping this registration, it
   * deletes the pass's registrations beyond the `devicesPerPass - 1` newest other devices and the device's beyond
   * its `passesPerDevice - 1` newest other passes (newest by `created_at`).
   */
  async register(
    tx: Tx,
    r: { deviceLibraryIdentifier: string; serialNumber: string; pushToken: string },
    caps: { devicesPerPass: number; passesPerDevice: number },
    lock = true,
  ): Promise<boolean> {
    const { deviceLibraryIdentifier, serialNumber, pushToken } = r;
    const reg = walletAppleRegistrations;
    if (lock) {
      await tx
        .select({ serialNumber: walletPasses.serialNumber })
        .from(walletPasses)
        .where(eq(walletPasses.serialNumber, serialNumber))
        .for('update');
      await tx.execute(sql`select pg_advisory_xact_lock(${DEVICE_LOCK_SPACE}, hashtext(${deviceLibraryIdentifier}))`);
    }
    const existing = await tx
      .select({ pushToken: reg.pushToken })
      .from(reg)
      .where(and(eq(reg.deviceLibraryIdentifier, deviceLibraryIdentifier), eq(reg.serialNumber, serialNumber)));
    await tx
      .insert(reg)
      .values({ deviceLibraryIdentifier, serialNumber, pushToken })
      .onConflictDoUpdate({ target: [reg.deviceLibraryIdentifier, reg.serialNumber], set: { pushToken } });
    const keptDevices = tx
      .select({ id: reg.deviceLibraryIdentifier })
      .from(reg)
      .where(and(eq(reg.serialNumber, serialNumber), ne(reg.deviceLibraryIdentifier, deviceLibraryIdentifier)))
      .orderBy(desc(reg.createdAt), desc(reg.deviceLibraryIdentifier))
      .limit(caps.devicesPerPass - 1);
    await tx
      .delete(reg)
      .where(
        and(
          eq(reg.serialNumber, serialNumber),
          ne(reg.deviceLibraryIdentifier, deviceLibraryIdentifier),
          notInArray(reg.deviceLibraryIdentifier, keptDevices),
        ),
      );
    const keptPasses = tx
      .select({ serial: reg.serialNumber })
      .from(reg)
      .where(and(eq(reg.deviceLibraryIdentifier, deviceLibraryIdentifier), ne(reg.serialNumber, serialNumber)))
      .orderBy(desc(reg.createdAt), desc(reg.serialNumber))
      .limit(caps.passesPerDevice - 1);
    await tx
      .delete(reg)
      .where(
        and(
          eq(reg.deviceLibraryIdentifier, deviceLibraryIdentifier),
          ne(reg.serialNumber, serialNumber),
          notInArray(reg.serialNumber, keptPasses),
        ),
      );
    return existing.length === 0;
  },

  /** Deletes every registration of a push token APNs called dead (400 BadDeviceToken, 410 Unregistered). */
  async dropPushToken(db: DbOrTx, pushToken: string): Promise<void> {
    await db.delete(walletAppleRegistrations).where(eq(walletAppleRegistrations.pushToken, pushToken));
  },

  /** Removes a device's registration for a pass. */
  async unregister(db: DbOrTx, deviceLibraryIdentifier: string, serialNumber: string): Promise<void> {
    await db
      .delete(walletAppleRegistrations)
      .where(
        and(
          eq(walletAppleRegistrations.deviceLibraryIdentifier, deviceLibraryIdentifier),
          eq(walletAppleRegistrations.serialNumber, serialNumber),
        ),
      );
  },

  /** The passes a device is registered for, changed after `since` (all when null), with their update times. */
  async devicePasses(db: DbOrTx, deviceLibraryIdentifier: string, since: Date | null) {
    return db
      .select({ serialNumber: walletPasses.serialNumber, updatedAt: walletPasses.updatedAt })
      .from(walletAppleRegistrations)
      .innerJoin(walletPasses, eq(walletPasses.serialNumber, walletAppleRegistrations.serialNumber))
      .where(
        and(
          eq(walletAppleRegistrations.deviceLibraryIdentifier, deviceLibraryIdentifier),
          since ? gt(walletPasses.updatedAt, since) : undefined,
        ),
      );
  },

  /**
   * The push tokens registered for a pass, of its `limit` newest registrations (the per-pass cap: rows from before
   * the cap existed are never all pushed).
   */
  async pushTokens(db: DbOrTx, serialNumber: string, limit: number): Promise<string[]> {
    const rows = await db
      .select({ pushToken: walletAppleRegistrations.pushToken })
      .from(walletAppleRegistrations)
      .where(eq(walletAppleRegistrations.serialNumber, serialNumber))
      .orderBy(desc(walletAppleRegistrations.createdAt))
      .limit(limit);
    return [...new Set(rows.map((r) => r.pushToken))];
  },

  /** The ticket `holder` holds (not revoked), with its event, type and organisation; undefined otherwise. */
  async heldTicket(db: DbOrTx, holder: Holder, userTicketId: number): Promise<WalletTicketRow | undefined> {
    const [row] = await db
      .select(ticketColumns)
      .from(userTickets)
      .innerJoin(ticketTypes, eq(ticketTypes.id, userTickets.ticketTypeId))
      .innerJoin(events, eq(events.id, ticketTypes.eventId))
      .innerJoin(organisations, eq(organisations.id, events.organisationId))
      .innerJoin(users, eq(users.id, userTickets.holderId))
      .where(and(heldBy(holder), eq(userTickets.id, userTicketId), isNull(userTickets.revokedAt)));
    return row;
  },
};
