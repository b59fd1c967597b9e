/**
 * The organisation API's ticket import (issue 12): POST /org/tickets/import, rows already parsed from the CSV
 * (`../ticket-import.csv.ts`), issued with the same rules as one ticket (`ticket-issuing.ts`).
 */
import { AUDIT_IMPORT_TICKETS_NAMED, organisations as contract, type MessageKey } from '@tp/contract';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';
import type { OrgApiDeps } from './deps.js';
import { countPlan, type IssuedBatch, type TicketInput, type TicketIssuing } from './ticket-issuing.js';
import { orgApiRepository as repo } from '../org-api.repository.js';
import { appendAudit } from '../../audit/audit.repository.js';
import { shortValue } from '../ticket-import.csv.js';
import { createBackgroundImports, planErrors } from './ticket-import.job.js';

/**
 * The tickets an import's `import.completed` entry names (issue 39): the first `AUDIT_IMPORT_TICKETS_NAMED` it
 * issued or re-issued, each with its ids and the holder's account id (for a re-issue, also the account it was
 * taken from: a VIP ticket moved to a friend shows whose it was and whose it is); the rest counted. An import never
 * revokes. Account ids only, no e-mail (decision 032).
 */
export function importedTicketsDetail(issued: IssuedBatch) {
  return {
    tickets: issued.items.slice(0, AUDIT_IMPORT_TICKETS_NAMED).map((i) => ({
      externalId: i.input.externalId,
      userTicketId: i.userTicketId,
      change: i.reissued ? ('reissued' as const) : ('issued' as const),
      holderId: i.holderId,
      ...(i.reissued ? { fromHolderId: i.fromHolderId } : {}),
    })),
    ticketsNotNamed: Math.max(0, issued.items.length - AUDIT_IMPORT_TICKETS_NAMED),
  };
}

/** The import part of the organisation API: many tickets at once, all or nothing. */
export function createOrgTicketImportService(
  deps: Pick<OrgApiDeps, 'database' | 'now' | 'config'>,
  issuing: TicketIssuing,
) {
  const db = deps.database.db;
  const { planTickets, prepareAccounts, prepareWrite, stillFits, writePrepared, applyPlan, enqueueIssuedMails } =
    issuing;
  const importMaxRows = contract.IMPORT_MAX_ROWS;
  return {
    ...createBackgroundImports(deps, issuing),
    /**
     * Most data rows one import takes: the contract's `IMPORT_MAX_ROWS` (50,000) on both databases; a file of
     * more than `importBackgroundRows` runs in the background (decision 040; the embedded database's 2,000-row cap
     * of decision 027 is gone).
     */
    importMaxRows,
    /** A file of more data rows than this is imported in the background ({@link startImport}; decision 040). */
    importBackgroundRows: deps.config.importBackgroundRows,
    /**
     * GET /org/tickets/import: what one import takes here (issue 41, point 3), so the console states this
     * instance's limits: `maxRows` data rows ({@link importMaxRows}), `maxBytes` bytes (`IMPORT_MAX_BYTES`), and
     * from how many rows it runs in the background (`backgroundRows`).
     */
    importLimits(): contract.ImportLimits {
      return {
        maxRows: importMaxRows,
        maxBytes: contract.IMPORT_MAX_BYTES,
        backgroundRows: deps.config.importBackgroundRows,
      };
    },
    /**
     * POST /org/tickets/import (rows already parsed): all or nothing. Any bad row: nothing is written and the
     * errors come back with their spreadsheet row numbers. `dryRun`: the same checks, no writes.
     *
     * In steps so the one connection of the embedded database is held briefly (decision 021): the rows are
     * checked first without a transaction (a refused or dry-run import never opens one), the holders' missing
     * accounts are created in statements of 1,000 and every row to write is made (ticket ids reserved, history,
     * webhook payloads); then one short transaction checks the rows again under row locks and, when nothing
     * changed meanwhile, writes what was made in a few set-based statements (else makes it again inside);
     * the holders' mails are small mail jobs of that transaction, rendered when sent (decision 030). The write
     * transaction records one `import.completed` entry with the counts and the tickets issued or re-issued, the
     * first `AUDIT_IMPORT_TICKETS_NAMED` named ({@link importedTicketsDetail}), not one entry per row; a refused or
     * dry-run import records nothing.
     * @param rows `{ row, input }` valid by shape, and `{ row, message, field }` already refused by the parser
     * @param refusedTypes the well-formed ticketTypeExternalId of each refused row: an unknown one is reported
     *   too (`api.org.ticket_type_not_found`), so a row lists all its errors (issue 21)
     */
    async importTickets(
      org: RequestOrganisation,
      rows: { row: number; input: TicketInput }[],
      parseErrors: { row: number; message: MessageKey; field?: string; value?: string }[],
      dryRun: boolean,
      refusedTypes: { row: number; ticketTypeExternalId: string }[] = [],
    ): Promise<
      | { errors: { row: number; message: MessageKey; field?: string; value?: string }[] }
      | { result: { dryRun: boolean; created: number; updated: number; unchanged: number } }
    > {
      const at = deps.now();
      const inputs = rows.map((r) => r.input);
      const known = new Set(
        (
          await repo.ticketTypesByExternalIds(db, org.id, [...new Set(refusedTypes.map((r) => r.ticketTypeExternalId))])
        ).map((t) => t.externalId),
      );
      const unknownTypes = refusedTypes
        .filter((r) => !known.has(r.ticketTypeExternalId))
        .map((r) => ({
          row: r.row,
          message: 'api.org.ticket_type_not_found' as const,
          field: 'ticketTypeExternalId',
          value: shortValue(r.ticketTypeExternalId),
        }));
      const errorsOf = (plan: Awaited<ReturnType<typeof planTickets>>) =>
        [
          ...parseErrors,
          ...unknownTypes,
          // The refused value as typed, in the column the error names (issue 41 point 12).
          ...planErrors(rows, plan),
        ].sort((a, b) => a.row - b.row);
      const checked = await planTickets(db, org, inputs, false);
      const early = errorsOf(checked);
      if (early.length) return { errors: early };
      if (dryRun) return { result: { dryRun, ...countPlan(checked) } };
      await prepareAccounts(db, checked);
      const prepared = await prepareWrite(db, org, checked, at);
      const outcome = await db.transaction(async (tx) => {
        // Again under row locks: a gift, resale or import since the first check is seen here.
        const plan = await planTickets(tx, org, inputs, true);
        const errors = errorsOf(plan);
        if (errors.length) return { errors, counts: null };
        const issued = (await stillFits(tx, checked, plan, prepared))
          ? await writePrepared(tx, prepared)
          : await applyPlan(tx, org, plan, at); // something changed meanwhile: made again, in the transaction
        const counts = countPlan(plan);
        await appendAudit(tx, org.id, org.actor, at, {
          action: 'import.completed',
          resourceType: 'import',
          resourceId: at.toISOString(),
          detail: { rows: inputs.length, ...counts, ...importedTicketsDetail(issued) },
        });
        // Rows, not rendered mails: the import answers without waiting for 10,000 renders (issue 23).
        await enqueueIssuedMails(tx, issued, at);
        return { errors: null, counts };
      });
      if (outcome.errors) return { errors: outcome.errors };
      return { result: { dryRun, ...outcome.counts } };
    },
  };
}
