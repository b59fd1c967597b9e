/**
 * Streaming parse of a ticket import (issue 12): `text/csv`, a header row naming `externalId`,
 * `ticketTypeExternalId` and `holderEmail` (any order; other columns ignored; a UTF-8 BOM is fine), then one
 * ticket per row. Files as spreadsheets save them are read too (issue 28): UTF-16 LE or BE (with a BOM, or
 * recognised by its zero bytes: Excel's "Unicode text") and fields separated by tabs or semicolons (the
 * separator that splits the header row into the three columns); an optional `holderLanguage` column (`en` or `es`,
 * any case, empty for `en`) sets the language of a holder account a row creates (issue 40); text that is neither UTF-8 nor UTF-16 is
 * refused with `api.org.import.unsupported_encoding`, naming what was found. Rows are numbered as a spreadsheet shows them: the header is row 1. Blank rows are skipped
 * (but counted). Each field is checked with the contract's schemas; a bad field is reported, not thrown.
 * Bounded: at most `IMPORT_MAX_BYTES` bytes and `maxRows` data rows (`IMPORT_MAX_ROWS`, fewer on PGlite). The text reaches the CSV parser in
 * pieces of at most 16,384 characters and the row loop gives the event loop a turn every few milliseconds
 * (`lib/time-slice.ts`), so a 10,000-row file never holds the main thread for long (decision 021).
 */
import { Readable, Transform } from 'node:stream';
import { parse } from 'csv-parse';
import { auth, organisations as contract, type MessageKey } from '@tp/contract';
import { AppError } from '../../lib/app-error.js';
import { timeSlicer } from '../../lib/time-slice.js';
import type { TicketInput } from './org-api/ticket-issuing.js';

export interface ParsedImport {
  rows: { row: number; input: TicketInput }[];
  errors: { row: number; message: MessageKey; field?: string; detail?: string; value?: string }[];
  /**
   * The well-formed ticketTypeExternalId of each row refused for another column (issue 21: a row lists all its
   * errors, so the import also says when that type does not exist).
   */
  refusedTypes: { row: number; ticketTypeExternalId: string }[];
}

const FIELD_SCHEMAS = {
  externalId: contract.externalId,
  ticketTypeExternalId: contract.externalId,
  holderEmail: auth.email,
} as const;

/** A cell's value as an error detail quotes it: in quotes, at most 40 characters (then `…`), or `(empty)`. */
function shownValue(value: string): string {
  return value === '' ? '(empty)' : JSON.stringify(shortValue(value));
}

/**
 * A refused value as typed, at most 40 characters (the 40th an ellipsis); an empty cell stays `''` (issue 41 point
 * 12, re-walk: the console says "empty" in its own language, and a cell that reads `(empty)` stays distinct).
 */
export function shortValue(value: string): string {
  const chars = Array.from(value);
  return chars.length > 40 ? `${chars.slice(0, 39).join('')}…` : value;
}

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

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/**
 * Tells the text encoding from a file's first bytes: a byte-order mark, else (no mark) the zero bytes that
 * UTF-16 puts beside every ASCII letter; UTF-8 otherwise. Exported for tests.
 * @throws AppError `api.org.import.unsupported_encoding` (400, with `encoding`) for a UTF-32 mark.
 */
export function sniffEncoding(head: Uint8Array): Encoding {
  const [a, b, c, d] = head;
  if (a === 0xff && b === 0xfe && c === 0 && d === 0) throw unsupported('utf-32le');
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) throw unsupported('utf-32be');
  if (a === 0xff && b === 0xfe) return 'utf-16le';
  if (a === 0xfe && b === 0xff) return 'utf-16be';
  if (head.length >= 2 && a !== 0 && b === 0) return 'utf-16le';
  if (head.length >= 2 && a === 0 && b !== 0) return 'utf-16be';
  return 'utf-8';
}

function unsupported(encoding: string): AppError {
  return new AppError('api.org.import.unsupported_encoding', { encoding });
}

/**
 * Decodes the byte stream to text in the sniffed encoding (the BOM dropped); a byte sequence that is not
 * valid in it is refused rather than read as replacement characters.
 * @throws AppError `api.org.import.unsupported_encoding` (400, `encoding: 'unknown'` when UTF-8 is invalid,
 *   e.g. a Windows-1252 or Latin-1 export).
 */
async function* decode(bytes: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let decoder: TextDecoder | null = null;
  let head = Buffer.alloc(0);
  let encoding: Encoding = 'utf-8';
  const text = (chunk: Uint8Array, stream: boolean): string => {
    try {
      return decoder!.decode(chunk, { stream });
    } catch {
      throw unsupported(encoding === 'utf-8' ? 'unknown' : encoding);
    }
  };
  for await (const chunk of bytes) {
    if (!decoder) {
      head = Buffer.concat([head, chunk]);
      if (head.length < 4) continue;
      encoding = sniffEncoding(head);
      decoder = new TextDecoder(encoding, { fatal: true });
      yield text(head, true);
    } else yield text(chunk, true);
  }
  if (!decoder && head.length > 0) {
    encoding = sniffEncoding(head);
    decoder = new TextDecoder(encoding, { fatal: true });
    yield text(head, true);
  }
  if (decoder) yield text(new Uint8Array(), false);
}

const SEPARATORS = [',', '\t', ';'] as const;

/**
 * The field separator: the first of comma, tab and semicolon that splits the header row into cells naming
 * every required column; a comma when none does (the header is then reported missing).
 */
export function sniffSeparator(headerLine: string): (typeof SEPARATORS)[number] {
  for (const sep of SEPARATORS) {
    const cells = headerLine.split(sep).map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    if (contract.IMPORT_COLUMNS.every((name) => cells.includes(name))) return sep;
  }
  return ',';
}

/** Characters handed to the CSV parser at once: a few hundred rows, parsed in about a millisecond. */
const PIECE = 16_384;

/** Cuts long strings into pieces of at most {@link PIECE} characters, never between a surrogate pair. */
async function* inPieces(text: AsyncIterable<string>): AsyncGenerator<string> {
  for await (let s of text) {
    while (s.length > PIECE) {
      const code = s.charCodeAt(PIECE - 1);
      const cut = code >= 0xd800 && code <= 0xdbff ? PIECE - 1 : PIECE;
      yield s.slice(0, cut);
      s = s.slice(cut);
    }
    if (s) yield s;
  }
}

/** Reads text until the end of the first line, then yields it and the rest; hands the separator over. */
async function withSeparator(text: AsyncIterable<string>): Promise<{ separator: string; text: AsyncIterable<string> }> {
  const it = text[Symbol.asyncIterator]();
  let first = '';
  let done = false;
  while (!/[\r\n]/.test(first)) {
    const next = await it.next();
    if (next.done) {
      done = true;
      break;
    }
    first += next.value;
  }
  async function* rest(): AsyncGenerator<string> {
    yield first;
    if (done) return;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
  }
  return { separator: sniffSeparator(first.split(/\r?\n|\r/)[0]), text: rest() };
}

/**
 * Parses the body stream.
 * @param maxRows most data rows taken (`IMPORT_MAX_ROWS`).
 * @throws AppError `api.org.import.missing_header` (400: a required column is missing), `api.org.import.invalid_csv`
 *   (400: not CSV, e.g. an unclosed quote), `api.org.import.unsupported_encoding` (400, with `encoding`: neither
 *   UTF-8 nor UTF-16), `api.org.import.too_large` / `api.org.import.too_many_rows` (413, with `detail` naming `maxRows`).
 */
export async function parseTicketImport(body: Readable, maxRows: number): Promise<ParsedImport> {
  const limit = byteLimit(contract.IMPORT_MAX_BYTES);
  body.on('error', (err) => limit.destroy(err));
  const out: ParsedImport = { rows: [], errors: [], refusedTypes: [] };
  let parser: ReturnType<typeof parse>;
  try {
    const { separator, text } = await withSeparator(decode(body.pipe(limit)));
    parser = parse({ delimiter: separator, relax_column_count: true, skip_empty_lines: false, trim: true });
    Readable.from(inPieces(text))
      .on('error', (err) => parser.destroy(err))
      .pipe(parser);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('api.org.import.invalid_csv', {}, {}, { cause: err });
  }
  type Columns = Record<(typeof contract.IMPORT_COLUMNS)[number], number>;
  let columns: Columns | null = null;
  /** The optional `holderLanguage` column's index, -1 when the file has none. */
  let languageColumn = -1;
  let row = 0;
  const slice = timeSlicer();
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const turn = slice.tick();
      if (turn) await turn;
      row++;
      if (!columns) {
        const names = record.map((c) => c.trim());
        const at = Object.fromEntries(contract.IMPORT_COLUMNS.map((c) => [c, names.indexOf(c)]));
        const missing = contract.IMPORT_COLUMNS.filter((c) => at[c] < 0);
        if (missing.length)
          throw new AppError('api.org.import.missing_header', {
            detail: `The header row has no column ${missing.join(', ')} (found: ${names.filter(Boolean).join(', ') || 'nothing'}).`,
          });
        columns = at as Columns;
        languageColumn = names.indexOf(contract.IMPORT_LANGUAGE_COLUMN);
        continue;
      }
      if (record.every((c) => c === '')) continue;
      if (row - 1 > maxRows)
        throw new AppError('api.org.import.too_many_rows', {
          detail: `This service takes at most ${maxRows} data rows per import: split the file into several imports (each is all or nothing).`,
        });
      const input: Record<string, string> = {};
      let ok = true;
      for (const name of contract.IMPORT_COLUMNS) {
        const value = record[columns[name]] ?? '';
        const parsed = FIELD_SCHEMAS[name].safeParse(value);
        if (parsed.success) input[name] = parsed.data;
        else {
          ok = false;
          // The bad value as the organiser typed it (issue 41 point 12), shortened, then what is expected.
          out.errors.push({
            row,
            message: 'api.invalid_request_body',
            field: name,
            detail: `Column ${name}: ${shownValue(value)} — ${parsed.error.issues.map((i) => i.message).join('; ')}.`,
            value: shortValue(value),
          });
        }
      }
      const language = languageColumn >= 0 ? (record[languageColumn] ?? '').toLowerCase() : '';
      if (language) {
        const parsed = contract.holderLanguage.safeParse(language);
        if (parsed.success) input.holderLanguage = parsed.data;
        else {
          ok = false;
          out.errors.push({
            row,
            message: 'api.invalid_request_body',
            field: contract.IMPORT_LANGUAGE_COLUMN,
            detail: `Column ${contract.IMPORT_LANGUAGE_COLUMN}: en or es (or empty for en).`,
            value: shortValue(language),
          });
        }
      }
      // The cast: `ok` means every column of the partial record was checked above, so it is a whole TicketInput.
      if (ok) out.rows.push({ row, input: input as unknown as TicketInput });
      else if (input.ticketTypeExternalId !== undefined)
        out.refusedTypes.push({ row, ticketTypeExternalId: input.ticketTypeExternalId });
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
