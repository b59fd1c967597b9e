/**
 * An error as the console shows it: the catalogue's text of the API's message key. The API's `detail` is English
 * (for developers): it is shown only on the English console, and only for a key the catalogue lacks; the Spanish
 * console says its generic text instead (Spanish review N3: no English sentence on a Spanish surface).
 */
import i18next, { type TFunction } from 'i18next';
import { ApiError } from './api';

/** True when the console speaks English, so that an API's English `detail` may stand in for a missing text. */
const speaksEnglish = () => !i18next.language?.startsWith('es');

export function errorText(t: TFunction, err: unknown): string {
  if (err instanceof ApiError) {
    const key = err.body.message;
    const detail = speaksEnglish() ? err.body.detail : undefined;
    return t(key, { defaultValue: detail ?? t('console.error_generic') });
  }
  return t('console.error_generic');
}

/**
 * One refused row of a CSV import as the console shows it: `text` from the catalogue (a field's own text when the
 * API names the field, e.g. `console.import.field_invalid.holderEmail`), and the API's English `detail` below it on
 * the English console only.
 */
export function importRowText(
  t: TFunction,
  r: { message: string; field?: string; detail?: string },
): { text: string; detail?: string } {
  const english = speaksEnglish();
  const fieldText =
    r.message === 'api.invalid_request_body' && r.field
      ? t(`console.import.field_invalid.${r.field}`, {
          defaultValue: t('console.import.field_invalid.other', { column: r.field }),
        })
      : undefined;
  const text = fieldText ?? t(r.message, { defaultValue: (english && r.detail) || t('console.error_generic') });
  return { text, detail: english ? r.detail : undefined };
}

/**
 * What the import screen says under a refused file's error (issue 41, point 3), in the console's language:
 * - `api.org.import.too_many_rows` / `too_large`: this instance's limits (`GET /v1/org/tickets/import`), and that a
 *   file can be split into several imports;
 * - `api.org.import.invalid_rows`, `missing_header`: nothing (the table of rows, the catalogue's text say it);
 * - any other key: the API's English `detail` on the English console only.
 * @param limits the instance's limits; undefined while they load (the English console then shows the API's detail)
 */
export function importErrorDetail(
  t: TFunction,
  err: unknown,
  limits: { maxRows: number; maxBytes: number } | undefined,
  format: (n: number) => string,
): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const english = speaksEnglish() ? err.body.detail : undefined;
  switch (err.body.message) {
    case 'api.org.import.invalid_rows':
    case 'api.org.import.missing_header':
      return undefined;
    case 'api.org.import.too_many_rows':
    case 'api.org.import.too_large':
      return limits
        ? t('console.import.split', { rows: format(limits.maxRows), size: format(limits.maxBytes / 1024 / 1024) })
        : english;
    default:
      return english;
  }
}
