/**
 * Writing an issue of tickets (ticket-issuing.ts): the holders' accounts (created in bulk when missing), the
 * prepared write (ticket ids, history, webhook deliveries, what the mails need) and its few set-based statements.
 */
import { randomInt } from 'node:crypto';
import type { DbOrTx } from '../../../db/client.js';
import { defaultNickname } from '../../auth/auth.users.js';
import { orgApiRepository as repo, type EventRow } from '../org-api.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import { organisationsRepository } from '../organisations.repository.js';
import { queueDeliveries, outboundDeliveriesOf } from '../../outbound-webhooks/outbound-events.js';
import type { EnsureUser } from './deps.js';
import { pickLang, type Lang } from '../../../lib/lang.js';
import type { IssuedBatch, PlannedRow, TicketInput } from './ticket-issuing.js';

/** Accounts per INSERT statement when a plan's holders are new. */
const ACCOUNTS_PER_STATEMENT = 1000;

/**
 * The accounts of these holders, created in bulk (statements of 1,000) when missing, each new one in its row's
 * `holderLanguage` (the first row of an e-mail decides; default `en`).
 */
async function accountsOf(
  tx: DbOrTx,
  holders: Pick<TicketInput, 'holderEmail' | 'holderLanguage'>[],
  ensureUser: EnsureUser,
) {
  const languageOf = new Map<string, Lang>();
  for (const h of holders) if (!languageOf.has(h.holderEmail)) languageOf.set(h.holderEmail, h.holderLanguage ?? 'en');
  const wanted = [...languageOf.keys()];
  const found = new Map((await repo.usersByEmails(tx, wanted)).map((u) => [u.email, u] as const));
  const missing = wanted.filter((e) => !found.has(e));
  for (let i = 0; i < missing.length; i += ACCOUNTS_PER_STATEMENT) {
    const inserted = await repo.insertUsers(
      tx,
      missing.slice(i, i + ACCOUNTS_PER_STATEMENT).map((email) => {
        const locale = languageOf.get(email)!;
        return { email, nickname: defaultNickname(locale), usernameSuffix: randomInt(1000, 10_000_000), locale };
      }),
    );
    for (const u of inserted) found.set(u.email, u);
  }
  // A username clash (or a concurrent sign-up) skipped a row: the auth module's one-by-one path settles it.
  for (const email of missing.filter((e) => !found.has(e))) {
    const locale = languageOf.get(email)!;
    const user = await ensureUser(email, locale, tx);
    const [row] = await repo.usersByEmails(tx, [email]);
    found.set(email, row ?? { id: user.id, email, locale });
  }
  return found;
}

/**
 * Creates the accounts a checked plan will issue to, before its transaction (the CSV import, decision 021):
 * statements of 1,000 accounts outside any transaction, so other requests run between them and the import's
 * transaction stays short. An account is what the holder's first sign-in would make anyway; should the
 * import then fail its second check (a concurrent change), the accounts stay, without tickets.
 */
export async function prepareAccounts(db: DbOrTx, plan: PlannedRow[], ensureUser: EnsureUser): Promise<void> {
  await accountsOf(
    db,
    plan.flatMap((p) => (p.kind === 'create' || p.kind === 'reissue' ? [p.input] : [])),
    ensureUser,
  );
}

/**
 * Makes everything a plan without errors will write (ticket ids reserved, history, webhook deliveries, what
 * the mails need) without writing it: the import runs this before its transaction (decision 021), so the
 * transaction is only a few set-based statements. The holders' accounts must exist ({@link prepareAccounts}).
 */
export async function prepareWrite(
  db: DbOrTx,
  org: RequestOrganisation,
  plan: PlannedRow[],
  at: Date,
  ensureUser: EnsureUser,
) {
  const toIssue = plan.filter(
    (p): p is Extract<PlannedRow, { kind: 'create' | 'reissue' }> => p.kind === 'create' || p.kind === 'reissue',
  );
  const accounts = await accountsOf(
    db,
    toIssue.map((p) => p.input),
    ensureUser,
  );
  const account = (email: string) => accounts.get(email)!;
  const creates = toIssue.filter((p) => p.kind === 'create');
  const reissues = toIssue.filter((p) => p.kind === 'reissue');
  const ids = await repo.reserveTicketIds(db, creates.length);
  const tickets = creates.map((p, i) => ({
    id: ids[i],
    organisationId: org.id,
    externalId: p.input.externalId,
    ticketTypeId: p.type.id,
    holderId: account(p.input.holderEmail).id,
    createdAt: at,
  }));
  const idOf = new Map<string, number>(tickets.map((t) => [t.externalId, t.id] as const));
  for (const p of reissues) idOf.set(p.input.externalId, p.ticket.id);
  const moves = reissues.map((p) => ({ userTicketId: p.ticket.id, holderId: account(p.input.holderEmail).id }));
  const history = [
    ...tickets.map((t) => ({ userTicketId: t.id, fromUserId: null, toUserId: t.holderId, kind: 'ISSUE', at })),
    ...reissues.map((p) => ({
      userTicketId: p.ticket.id,
      fromUserId: p.ticket.holderId,
      toUserId: account(p.input.holderEmail).id,
      kind: 'REISSUE',
      at,
    })),
  ];
  const eventRows = new Map<number, EventRow>();
  for (const id of new Set(toIssue.map((p) => p.type.eventId))) {
    const e = await repo.eventById(db, id);
    if (e) eventRows.set(id, e);
  }
  const organisation = toIssue.length ? await organisationsRepository.organisationById(db, org.id) : undefined;
  const items = toIssue.map((p) => {
    const holder = account(p.input.holderEmail);
    // A ticket type's event exists (foreign key) and was read just above.
    const event = eventRows.get(p.type.eventId)!;
    return {
      userTicketId: idOf.get(p.input.externalId)!,
      input: p.input,
      reissued: p.kind === 'reissue',
      holderId: holder.id,
      fromHolderId: p.kind === 'reissue' ? p.ticket.holderId : null,
      email: holder.email,
      locale: pickLang(holder.locale),
      ticketName: p.type.name,
      event,
      eventExternalId: event.externalId,
    };
  });
  const deliveries = await outboundDeliveriesOf(
    db,
    org.id,
    items.map((i) => ({
      type: 'ticket.issued' as const,
      data: {
        ticketExternalId: i.input.externalId,
        eventExternalId: i.eventExternalId,
        ticketTypeExternalId: i.input.ticketTypeExternalId,
        userTicketId: i.userTicketId,
        holderEmail: i.input.holderEmail,
        reissued: i.reissued,
      },
    })),
    at,
  );
  const batch: IssuedBatch = { organisation: organisation ?? null, items };
  return { orgId: org.id, tickets, moves, history, deliveries, batch };
}
/** A plan made ready to write ({@link writePrepared}). */
export type PreparedWrite = Awaited<ReturnType<typeof prepareWrite>>;

/**
 * Writes a prepared plan: tickets (with one of each benefit of their type), re-issues, history, webhook
 * deliveries, in a few set-based statements. Call it inside the transaction whose locked plan it was made
 * for; returns what the mails need.
 */
export async function writePrepared(tx: DbOrTx, w: PreparedWrite): Promise<IssuedBatch> {
  await repo.insertTickets(tx, w.tickets);
  await repo.grantTypeBenefits(tx, w.tickets);
  await repo.setHolders(tx, w.moves);
  await repo.insertHistory(tx, w.history);
  await queueDeliveries(tx, w.deliveries);
  return w.batch;
}
