/**
 * The organisation API's ticket import (issue 12): POST /org/tickets/import, rows already parsed from the CSV
 * (`../ticket-import.csv.ts`), issued with the same rules as one ticket (`ticket-issuing.ts`).
 */
import type { MessageKey } from '@tp/contract';
import type { RequestOrganisation } from '../org-auth.js';
import type { OrgApiDeps } from './deps.js';
import { countPlan, type TicketInput, type TicketIssuing } from './ticket-issuing.js';

/** The import part of the organisation API: many tickets at once, all or nothing. */
export function createOrgTicketImportService(
  deps: Pick<OrgApiDeps, 'database' | 'mailQueue' | 'now'>,
  issuing: TicketIssuing,
) {
  const db = deps.database.db;
  const { planTickets, applyPlan } = issuing;
  return {
    /**
     * POST /org/tickets/import (rows already parsed): all or nothing, in one transaction. Any bad row: nothing is
     * written and the errors come back with their spreadsheet row numbers. `dryRun`: the same checks, no writes.
     * @param rows `{ row, input }` valid by shape, and `{ row, message, field }` already refused by the parser
     */
    async importTickets(
      org: RequestOrganisation,
      rows: { row: number; input: TicketInput }[],
      parseErrors: { row: number; message: MessageKey; field?: string }[],
      dryRun: boolean,
    ): Promise<
      | { errors: { row: number; message: MessageKey; field?: string }[] }
      | { result: { dryRun: boolean; created: number; updated: number; unchanged: number } }
    > {
      const at = deps.now();
      const outcome = await db.transaction(async (tx) => {
        const plan = await planTickets(
          tx,
          org,
          rows.map((r) => r.input),
          !dryRun,
        );
        const errors = [
          ...parseErrors,
          ...plan.flatMap((p, i) =>
            p.kind === 'error'
              ? [{ row: rows[i].row, message: p.message, ...(p.field ? { field: p.field } : {}) }]
              : [],
          ),
        ].sort((a, b) => a.row - b.row);
        if (errors.length) return { errors } as const;
        const mails = dryRun ? [] : await applyPlan(tx, org, plan, at);
        return { counts: countPlan(plan), mails } as const;
      });
      if ('errors' in outcome)
        return { errors: outcome.errors as { row: number; message: MessageKey; field?: string }[] };
      deps.mailQueue.push(outcome.mails);
      return { result: { dryRun, ...outcome.counts } };
    },
  };
}
