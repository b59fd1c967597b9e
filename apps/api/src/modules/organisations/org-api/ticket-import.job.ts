/**
 * Background ticket imports (issue 44, decision 040): a CSV file of more than `IMPORT_BACKGROUND_ROWS` data rows is
 * kept (table `ticket_imports`) and carried out by a `ticket_import` job of the durable queue (decision 030), so a
 * stadium's 50,000 rows neither hold the request nor, on the embedded database, its one connection for long.
 *
 * All or nothing, in steps that each hold the connection briefly:
 * 1. **Check** every row without a transaction, in pieces of {@link CHECK_ROWS} (the rules of `issuing-plan.ts`;
 *    an externalId twice anywhere in the file is refused too). Any bad row: the import is `failed` with its row
 *    errors and nothing is written.
 * 2. **Write** in short transactions, in an order fixed when the check passed: first every re-issue at once (the
 *    rows a holder's gift, sale or use could change meanwhile: a change since the check refuses the whole import
 *    there, before anything is written), then the new tickets in chunks of `IMPORT_CHUNK_ROWS`, then the unchanged
 *    rows. Each transaction checks its rows again under row locks, writes them as one ticket PUT would (tickets,
 *    history, webhook deliveries, the holders' mail jobs, bulk class) and moves `rows_done` and the counts in the
 *    same commit: a job claimed again after a crash (or a lease overrun) goes on from the last chunk written and
 *    never writes one twice.
 * 3. **Finish**: one `import.completed` audit entry and `done`.
 *
 * Once the check passed, only a ticket type deleted or a ticket the organiser changed through another call in the
 * seconds of the write can refuse a later chunk; the import then stops `failed` naming those rows, with `rowsDone`
 * saying how many were written, and sending the file again completes it (imports are idempotent by externalId).
 */
import { randomUUID } from 'node:crypto';
import { AUDIT_IMPORT_TICKETS_NAMED, organisations as contract, type MessageKey } from '@tp/contract';
import { isUuid } from '@tp/contract/fields';
import type { Db } from '../../../db/client.js';
import { analyzeTables } from '../../../db/statistics.js';
import { AppError } from '../../../lib/app-error.js';
import { enqueueJobs } from '../../../providers/jobs/job-queue.js';
import type { AuditActor } from '../../audit/audit.repository.js';
import { appendAudit } from '../../audit/audit.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import { orgApiRepository as repo } from '../org-api.repository.js';
import { organisationsRepository } from '../organisations.repository.js';
import { ticketImportsRepository as imports } from '../ticket-imports.repository.js';
import { shortValue } from '../ticket-import.csv.js';
import type { OrgApiDeps } from './deps.js';
import {
  countPlan,
  type IssuedBatch,
  type PlannedRow,
  type TicketInput,
  type TicketIssuing,
} from './ticket-issuing.js';

/** The job kind of a background import (lane `other`, one at a time per instance). */
export const TICKET_IMPORT_JOB = 'ticket_import';

/** Rows one unlocked check statement reads (the check phase's pieces). */
const CHECK_ROWS = 5000;

/** One row of an import: its spreadsheet row number and what it asks for. */
interface ImportRow {
  row: number;
  input: TicketInput;
}

/** One refused row, as the 422 of a small import and the status of a failed one list it. */
interface ImportRowError {
  row: number;
  message: MessageKey;
  field?: string;
  value?: string;
}

/** The value of a ticket input's column, as text (`''` when it has none). */
const fieldValue = (input: TicketInput, field: string): string => {
  const value: unknown = Reflect.get(input, field);
  return typeof value === 'string' ? value : '';
};

/** The errors of a plan, each with the row number of its row and the refused value (issue 41 point 12). */
export function planErrors(rows: readonly ImportRow[], plan: readonly PlannedRow[]): ImportRowError[] {
  return plan.flatMap((p, i) =>
    p.kind === 'error'
      ? [
          {
            row: rows[i].row,
            message: p.message,
            ...(p.field ? { field: p.field, value: shortValue(fieldValue(p.input, p.field)) } : {}),
          },
        ]
      : [],
  );
}

/** A chunk's rows planned again under locks came out with errors: its transaction is rolled back. */
class ChunkRefused extends Error {
  constructor(readonly errors: ImportRowError[]) {
    super('import chunk refused');
  }
}

/** What the steps of a background import take: the database, the app's clock (UTC), the settings, the issuing rules. */
type ImportDeps = Pick<OrgApiDeps, 'database' | 'now' | 'config'> & { issuing: TicketIssuing };

/** The organisation an import runs for, as the issuing rules take it (its actor: who sent the file). */
async function organisationOf(db: Db, organisationId: number, actor: AuditActor): Promise<RequestOrganisation | null> {
  const org = await organisationsRepository.organisationById(db, organisationId);
  // The role was checked when the file was sent (area `events`); the job acts as that request did.
  return org ? { id: org.id, slug: org.slug, role: 'staff', actor } : null;
}

/** Every row checked without locks, in pieces; refused rows (an externalId twice anywhere too) and the plan. */
async function checkAll(deps: ImportDeps, org: RequestOrganisation, rows: readonly ImportRow[]) {
  const plan: PlannedRow[] = [];
  for (let i = 0; i < rows.length; i += CHECK_ROWS)
    plan.push(
      ...(await deps.issuing.planTickets(
        deps.database.db,
        org,
        rows.slice(i, i + CHECK_ROWS).map((r) => r.input),
        false,
      )),
    );
  const errors = planErrors(rows, plan);
  const refused = new Set(errors.map((e) => e.row));
  const seen = new Set<string>();
  rows.forEach((r, i) => {
    if (seen.has(r.input.externalId) && !refused.has(r.row)) {
      plan[i] = {
        kind: 'error',
        input: r.input,
        message: 'api.org.import.duplicate_external_id',
        field: 'externalId',
      };
      errors.push({
        row: r.row,
        message: 'api.org.import.duplicate_external_id',
        field: 'externalId',
        value: shortValue(r.input.externalId),
      });
    }
    seen.add(r.input.externalId);
  });
  return { plan, errors: errors.sort((a, b) => a.row - b.row) };
}

/** Ends the import `failed` with its first `IMPORT_MAX_ERRORS` row errors (nothing more of it is written). */
async function failImport(deps: ImportDeps, importId: string, errors: ImportRowError[]): Promise<void> {
  await imports.finish(deps.database.db, importId, 'failed', deps.now(), errors.slice(0, contract.IMPORT_MAX_ERRORS));
}

/**
 * The check step of an import's first run: every row checked ({@link checkAll}); a refused row ends the import
 * `failed` with its row errors (null). Else the rows are kept in the order they are written in, the re-issues first.
 * @returns the rows in that order and how many re-issues lead them (`headRows`), or null when the import failed
 */
async function checkImport(deps: ImportDeps, importId: string, org: RequestOrganisation, rows: ImportRow[]) {
  const { plan, errors } = await checkAll(deps, org, rows);
  if (errors.length) {
    await failImport(deps, importId, errors);
    return null;
  }
  const order = (kind: PlannedRow['kind']) => rows.filter((_, i) => plan[i].kind === kind);
  const reissues = order('reissue');
  const ordered = [...reissues, ...order('create'), ...order('unchanged')];
  await imports.setChecked(deps.database.db, importId, ordered, reissues.length);
  return { rows: ordered, headRows: reissues.length };
}

/**
 * Writes rows `[start, end)` of the import in one short transaction, if the import is still where this run
 * left it; returns what was issued, or null when another run of the job got there first.
 * @throws ChunkRefused when the rows, checked again under row locks, have errors (nothing of the chunk written)
 */
async function writeChunk(
  deps: ImportDeps,
  id: string,
  org: RequestOrganisation,
  rows: readonly ImportRow[],
  start: number,
) {
  const db = deps.database.db;
  const { planTickets, prepareAccounts, prepareWrite, stillFits, writePrepared, applyPlan, enqueueIssuedMails } =
    deps.issuing;
  const inputs = rows.map((r) => r.input);
  const at = deps.now();
  // Made before the transaction (accounts, ticket ids, history, deliveries), so it is a few statements long.
  const checked = await planTickets(db, org, inputs, false);
  const clean = !checked.some((p) => p.kind === 'error');
  if (clean) await prepareAccounts(db, checked);
  const prepared = clean ? await prepareWrite(db, org, checked, at) : null;
  return db.transaction(async (tx) => {
    const progress = await imports.lockProgress(tx, id);
    if (progress?.status !== 'running' || progress.rowsDone !== start) return null;
    const plan = await planTickets(tx, org, inputs, true);
    const errors = planErrors(rows, plan);
    if (errors.length) throw new ChunkRefused(errors);
    const issued =
      prepared && (await stillFits(tx, checked, plan, prepared))
        ? await writePrepared(tx, prepared)
        : await applyPlan(tx, org, plan, at);
    await enqueueIssuedMails(tx, issued, at);
    await imports.addProgress(tx, id, { rows: rows.length, ...countPlan(plan) });
    return issued;
  });
}

/** Where the next transaction of an import starts and ends: the re-issues at once, then chunks. */
const stepOf = (rowsDone: number, headRows: number, total: number, chunk: number) =>
  rowsDone < headRows ? { start: 0, end: headRows } : { start: rowsDone, end: Math.min(total, rowsDone + chunk) };

/**
 * The write step: the checked rows from `from` (the rows already written) on, each transaction's rows by
 * {@link stepOf}. A refused chunk ends the import `failed` with its row errors.
 * @returns the tickets this run issued, first ones first (at most `AUDIT_IMPORT_TICKETS_NAMED`), or null when the
 *   import failed or another run of the job wrote a chunk first (that run goes on, not this one)
 */
async function writeAll(
  deps: ImportDeps,
  importId: string,
  org: RequestOrganisation,
  checked: { rows: ImportRow[]; headRows: number },
  from: number,
): Promise<IssuedBatch['items'] | null> {
  const { rows, headRows } = checked;
  const named: IssuedBatch['items'] = [];
  let rowsDone = from;
  while (rowsDone < rows.length) {
    const { start, end } = stepOf(rowsDone, headRows, rows.length, deps.config.importChunkRows);
    let issued: IssuedBatch | null;
    try {
      issued = await writeChunk(deps, importId, org, rows.slice(start, end), start);
    } catch (err) {
      if (!(err instanceof ChunkRefused)) throw err;
      await failImport(deps, importId, err.errors);
      return null;
    }
    if (!issued) return null; // another run of this job wrote this chunk: it goes on, not this one
    named.push(...issued.items.slice(0, Math.max(0, AUDIT_IMPORT_TICKETS_NAMED - named.length)));
    rowsDone = end;
  }
  return named;
}

/**
 * The finish step: one `import.completed` audit entry (the import's counts and the tickets `named`) and `done`, in
 * one transaction, if the import is still running.
 */
async function finishImport(
  deps: ImportDeps,
  importId: string,
  org: RequestOrganisation,
  rowsTotal: number,
  named: IssuedBatch['items'],
): Promise<void> {
  const at = deps.now();
  await deps.database.db.transaction(async (tx) => {
    const progress = await imports.lockProgress(tx, importId);
    if (progress?.status !== 'running') return;
    const done = await imports.statusOf(tx, org.id, importId);
    await appendAudit(tx, org.id, org.actor, at, {
      action: 'import.completed',
      resourceType: 'import',
      resourceId: importId,
      detail: {
        rows: rowsTotal,
        created: done?.created ?? 0,
        updated: done?.updated ?? 0,
        unchanged: done?.unchanged ?? 0,
        ...importedTickets(named, (done?.created ?? 0) + (done?.updated ?? 0)),
      },
    });
    await imports.finish(tx, importId, 'done', at);
  });
}

/** One run of an import's job: check (on its first run), write and finish, going on from its last written chunk. */
async function runImportOnce(deps: ImportDeps, payload: unknown): Promise<void> {
  const db = deps.database.db;
  const importId = (payload as { importId?: unknown } | null)?.importId;
  if (typeof importId !== 'string') return;
  const job = await imports.byId(db, importId);
  if (!job || job.status === 'done' || job.status === 'failed') return;
  const org = await organisationOf(db, job.organisationId, job.actor as AuditActor);
  if (!org) return;
  if (job.status === 'queued') await imports.setRunning(db, importId);
  const rows = (job.rows ?? []) as ImportRow[];
  const checked =
    job.headRows === null ? await checkImport(deps, importId, org, rows) : { rows, headRows: job.headRows };
  if (!checked) return;
  const named = await writeAll(deps, importId, org, checked, job.rowsDone);
  if (!named) return;
  await finishImport(deps, importId, org, checked.rows.length, named);
  // The doors may open right after a stadium's file: plans from statistics that still see the tables before it
  // would scan every ticket for each pass (decision 051).
  await analyzeTables(db);
}

/**
 * The import of many rows in the background: `startImport` (POST /org/tickets/import over the threshold),
 * `importStatus` (GET /org/imports/{importId}) and the job's handler `runImportJob`; the job's steps are the
 * module's helpers above ({@link runImportOnce}).
 */
export function createBackgroundImports(deps: Pick<OrgApiDeps, 'database' | 'now' | 'config'>, issuing: TicketIssuing) {
  const db = deps.database.db;
  const steps: ImportDeps = { database: deps.database, now: deps.now, config: deps.config, issuing };
  const background = {
    /**
     * POST /org/tickets/import of a file over `IMPORT_BACKGROUND_ROWS` rows, already parsed without errors: keeps
     * it and queues its job in one transaction. Refused while another import of one of the same events is queued
     * or running (the organisation's row is locked, so two files sent at once are seen one after the other).
     * @returns the `importId` (202)
     * @throws AppError `api.org.import.in_progress` (409, with the running import's `importId`)
     */
    async startImport(org: RequestOrganisation, rows: ImportRow[]): Promise<contract.ImportAccepted> {
      const types = await repo.ticketTypesByExternalIds(db, org.id, [
        ...new Set(rows.map((r) => r.input.ticketTypeExternalId)),
      ]);
      const eventIds = [...new Set(types.map((t) => t.eventId))];
      const importId = randomUUID();
      await db.transaction(async (tx) => {
        await imports.lockOrganisation(tx, org.id);
        const clash = (await imports.unfinished(tx, org.id)).find((i) => i.eventIds.some((e) => eventIds.includes(e)));
        if (clash) throw new AppError('api.org.import.in_progress', { importId: clash.id });
        await imports.insert(tx, {
          id: importId,
          organisationId: org.id,
          eventIds,
          actor: org.actor,
          rowsTotal: rows.length,
          rows,
        });
        await enqueueJobs(tx, [{ kind: TICKET_IMPORT_JOB, payload: { importId }, runAt: deps.now() }]);
      });
      return { importId };
    },

    /**
     * GET /org/imports/{importId}: where the organisation's import is.
     * @throws AppError `api.org.import.not_found` (404; another organisation's import, or not an id)
     */
    async importStatus(org: RequestOrganisation, importId: string): Promise<contract.ImportStatus> {
      const row = isUuid(importId) ? await imports.statusOf(db, org.id, importId) : undefined;
      if (!row) throw new AppError('api.org.import.not_found');
      const status = contract.importStatus.parse(row.status);
      const errors = contract.importStatusResponse.shape.errors.parse(row.errors ?? undefined);
      return {
        importId: row.id,
        status,
        rowsDone: row.rowsDone,
        rowsTotal: row.rowsTotal,
        ...(status === 'failed' && errors ? { errors } : {}),
        ...(status === 'queued' ? {} : { created: row.created, updated: row.updated, unchanged: row.unchanged }),
      };
    },

    /**
     * The `ticket_import` job's handler (`{ importId }`): checks, writes and finishes the import (see above),
     * going on from its last written chunk when claimed again. A failure of the database rejects (the queue
     * retries); on the queue's last attempt (`JOB_MAX_ATTEMPTS`) it ends the import `failed` first, so its status
     * never stays `running`. A refused row ends the import `failed`, which is the job's success.
     */
    async runImportJob(payload: unknown, attempt = 1): Promise<void> {
      try {
        await background.runImport(payload);
      } catch (err) {
        const importId = (payload as { importId?: unknown } | null)?.importId;
        if (attempt >= deps.config.jobMaxAttempts && typeof importId === 'string') {
          const progress = await imports.byId(db, importId).catch(() => undefined);
          if (progress && (progress.status === 'queued' || progress.status === 'running'))
            await imports.finish(db, importId, 'failed', deps.now(), []);
        }
        throw err;
      }
    },

    /** One run of an import's job ({@link runImportJob} without the last attempt's ending). */
    runImport: (payload: unknown): Promise<void> => runImportOnce(steps, payload),
  };
  return background;
}

/**
 * The tickets a background import's `import.completed` entry names: those this run issued, first ones first (a
 * run that went on after a crash names only its own), the rest of `issuedCount` counted.
 */
function importedTickets(items: IssuedBatch['items'], issuedCount: number) {
  const tickets = items.slice(0, AUDIT_IMPORT_TICKETS_NAMED).map((i) => ({
    externalId: i.input.externalId,
    userTicketId: i.userTicketId,
    change: i.reissued ? ('reissued' as const) : ('issued' as const),
    holderId: i.holderId,
    ...(i.reissued ? { fromHolderId: i.fromHolderId } : {}),
  }));
  return { tickets, ticketsNotNamed: Math.max(0, issuedCount - tickets.length) };
}
