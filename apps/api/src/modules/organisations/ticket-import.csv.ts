/**
 * Streaming parse of a ticket import (issue 12): `text/csv`, a header row naming `externalId`,
 * `ticketTypeExternalId` and `holderEmail` (any order; other columns ignored; a UTF-8 BOM is fine), then one
 * ticket per row. Rows are numbered as a spreadsheet shows them: the header is row 1. Blank rows are skipped
 * (but counted). Each field is checked with the contract's schemas; a bad field is reported, not thrown.
 * Bounded: at most `IMPORT_MAX_BYTES` bytes and `IMPORT_MAX_ROWS` data rows.
 */
import { Transform, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { auth, organisations as contract, type MessageKey } from '@tp/contract';
import { AppError } from '../../lib/app-error.js';
import type { TicketInput } from './org-api/ticket-issuing.js';

export interface ParsedImport {
  rows: { row: number; input: TicketInput }[];
  errors: { row: number; message: MessageKey; field?: string }[];
}

const FIELD_SCHEMAS = {
  externalId: contract.externalId,
  ticketTypeExternalId: contract.externalId,
  holderEmail: auth.email,
} as const;

/** Counts bytes through; fails with 413 `api.org.import.too_large` past `max`. */
function byteLimit(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > max) done(new AppError('api.org.import.too_large'));
      else done(null, chunk);
    },
  });
}

/**
 * Parses the body stream.
 * @throws AppError `api.org.import.missing_header` (400: a required column is missing), `api.org.import.invalid_csv`
 *   (400: not CSV, e.g. an unclosed quote), `api.org.import.too_large` / `api.org.import.too_many_rows` (413).
 */
export async function parseTicketImport(body: Readable): Promise<ParsedImport> {
  const limit = byteLimit(contract.IMPORT_MAX_BYTES);
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: false, trim: true });
  body.on('error', (err) => limit.destroy(err));
  body
    .pipe(limit)
    .on('error', (err) => parser.destroy(err))
    .pipe(parser);
  const out: ParsedImport = { rows: [], errors: [] };
  type Columns = Record<(typeof contract.IMPORT_COLUMNS)[number], number>;
  let columns: Columns | null = null;
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row++;
      if (!columns) {
        const names = record.map((c) => c.trim());
        const at = Object.fromEntries(contract.IMPORT_COLUMNS.map((c) => [c, names.indexOf(c)]));
        if (Object.values(at).some((i) => i < 0)) throw new AppError('api.org.import.missing_header');
        columns = at as Columns;
        continue;
      }
      if (record.every((c) => c === '')) continue;
      if (row - 1 > contract.IMPORT_MAX_ROWS) throw new AppError('api.org.import.too_many_rows');
      const input: Record<string, string> = {};
      let ok = true;
      for (const name of contract.IMPORT_COLUMNS) {
        const parsed = FIELD_SCHEMAS[name].safeParse(record[columns[name]] ?? '');
        if (parsed.success) input[name] = parsed.data;
        else {
          ok = false;
          out.errors.push({ row, message: 'api.invalid_request_body', field: name });
        }
      }
      if (ok) out.rows.push({ row, input: input as unknown as TicketInput });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof AppError) throw cause;
    throw new AppError('api.org.import.invalid_csv', {}, {}, { cause: err });
  }
  if (!columns) throw new AppError('api.org.import.missing_header');
  return out;
}
