/**
 * POST /v1/org/tickets/import: a CSV file of tickets, sent as it is (the API detects UTF-8/UTF-16, a BOM, comma or
 * semicolon); a dry run (`dryRun`) checks every row and counts, the import proper is all or nothing. A file over
 * the instance's `backgroundRows` is imported in the background: the answer is its `importId` (202), followed by
 * import-status.api.ts (issue 44).
 * @throws ApiError `api.org.import.invalid_rows` (its `errors`: each refused row, `importRowErrors`),
 *   `api.org.import.too_many_rows`, `too_large`, `missing_header`, `in_progress` (another file of the event runs).
 */
import { useMutation } from '@tanstack/react-query';
import type { ImportAccepted } from '@tp/contract/organisations';
import { org } from '../../api';

/** What an import did or, on a dry run, would do: tickets created, updated and left unchanged. */
export type ImportOutcome = { dryRun: boolean; created: number; updated: number; unchanged: number };

export const importTickets = (file: File, dryRun: boolean): Promise<ImportOutcome | ImportAccepted> =>
  org.POST('/v1/org/tickets/import', {
    params: { query: dryRun ? { dryRun: 'true' } : {} },
    headers: { 'content-type': 'text/csv' },
    body: file,
  });

/** The import mutation (`mutate({ file, dryRun })`): its data is the outcome or the background import's id. */
export const useImportTickets = () =>
  useMutation({ mutationFn: (v: { file: File; dryRun: boolean }) => importTickets(v.file, v.dryRun) });
