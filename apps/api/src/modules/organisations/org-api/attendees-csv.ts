/**
 * The attendee export (issue 21 point 2): GET /org/events/{externalId}/attendees.csv. Rows are read by keyset
 * pages of `ATTENDEES_BATCH` and written by csv-stringify as they come (memory stays one page, whatever the
 * event's size). Cells that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR)
 * are neutralised by a leading `'` (OWASP "CSV injection"); headers are English or Spanish by Accept-Language
 * (`pages.attendees_csv` of the API's catalogues),
 * and so is the status column: the English file keeps the API's status values (`issued`, `checked_in`, …, what
 * scripts read), the Spanish one the console's words (Emitida, Validada, …; Spanish review N4).
 */
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { organisations } from '@tp/contract';
import type { Lang } from '../../../lib/lang.js';
import { textTable } from '../../../lib/i18n.js';

/** Tickets read per database round trip of the export. */
export const ATTENDEES_BATCH = 1000;

/** The export's texts in each language (`pages.attendees_csv` of the API's catalogues). */
const texts = { en: textTable('en', 'pages.attendees_csv'), es: textTable('es', 'pages.attendees_csv') };

/** Each key of a table of the export's texts (`columns`, `status`) with its text in each language. */
function inBothLanguages<K extends string>(
  en: Record<K, string>,
  es: Record<K, string>,
): Record<K, Record<Lang, string>> {
  const table = {} as Record<K, Record<Lang, string>>;
  for (const key of Object.keys(en) as K[]) table[key] = { en: en[key], es: es[key] };
  return table;
}

/** The export's columns, in order (the catalogue's), with their header in each language. */
export const ATTENDEE_COLUMNS = inBothLanguages(texts.en.columns, texts.es.columns);
export type AttendeeRecord = Record<keyof typeof ATTENDEE_COLUMNS, string>;

/** The status column's text for each ticket status: the API's value in English, the console's word in Spanish. */
export const ATTENDEE_STATUS: Record<organisations.TicketStatus, Record<Lang, string>> = inBothLanguages(
  texts.en.status,
  texts.es.status,
);

/** A cell a spreadsheet will not run as a formula: a leading `= + - @`, tab or CR gets a `'` before it. */
export const neutralise = (cell: string) => (/^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell);

/**
 * The CSV stream of `records` (UTF-8 with a BOM so that spreadsheets read accents, CRLF line ends), every
 * cell neutralised.
 */
export function attendeesCsv(records: AsyncIterable<AttendeeRecord>, lang: Lang): Readable {
  const columns = Object.entries(ATTENDEE_COLUMNS).map(([key, header]) => ({ key, header: header[lang] }));
  const csv = stringify({
    header: true,
    columns,
    bom: true,
    record_delimiter: 'windows',
    cast: { string: neutralise },
  });
  // pipeline: a failed read destroys the CSV stream too, so the answer ends (aborted) rather than hangs.
  pipeline(Readable.from(records), csv, () => {});
  return csv;
}
