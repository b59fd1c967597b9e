/**
 * An error as the console shows it: the catalogue's text of the API's message key. The API's `detail` is English
 * (for developers): it is shown only on the English console, and only for a key the catalogue lacks; the Spanish
 * console says its generic text instead (Spanish review N3: no English sentence on a Spanish surface).
 */
import i18next, { type TFunction } from 'i18next';
import { ApiError } from './api';

/** True when the console speaks English, so that an API's English `detail` may stand in for a missing text. */
const speaksEnglish = () => !i18next.language?.startsWith('es');

/** The API's English `detail` of an error answer, if it has one. */
const detailOf = (err: ApiError): string | undefined =>
  typeof err.body.detail === 'string' ? err.body.detail : undefined;

export function errorText(t: TFunction, err: unknown): string {
  if (err instanceof ApiError) {
    const detail = speaksEnglish() ? detailOf(err) : undefined;
    return t(err.message, { defaultValue: detail ?? t('console.error_generic') });
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
  const english = speaksEnglish() ? detailOf(err) : undefined;
  switch (err.message) {
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

/**
 * The SMTP reply code of a relay's answer (`452`, `550 5.1.1`: the basic code and, when given, the enhanced one of
 * RFC 3463), or null when the answer has none. Only failure codes (4xx, 5xx) count.
 */
export function smtpCode(detail: string | null): string | null {
  const m = detail?.match(/\b([45]\d\d)(?:[ -]([45]\.\d{1,3}\.\d{1,3}))?\b/);
  return m ? [m[1], m[2]].filter(Boolean).join(' ') : null;
}

/**
 * A holder's failing or bounced e-mail as the ticket drawer says it (issue 41 point 6; re-walk): the console's own
 * sentence in its language, then the relay's SMTP code when its answer has one, never the mail library's English
 * text nor the address the relay quoted.
 */
export function emailStatusText(t: TFunction, status: 'failing' | 'bounced', detail: string | null): string {
  const code = smtpCode(detail);
  const sentence = t(`console.holders.email_${status}`);
  return code ? `${sentence} ${t('console.holders.email_code', { code })}` : sentence;
}
