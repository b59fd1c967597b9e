/**
 * Fields a job handler adds to its failure's log line (issue 41, point 8): the handler knows what the job was for
 * (a mail's template, its recipient's user id), the worker only its kind and id. The handler attaches them to the
 * error it rejects with, out of sight of the error's serialiser (a non-enumerable symbol property: never in the
 * error's own fields nor in `last_error`); the worker's log (app/background.ts) writes them beside `kind`. Ids and
 * names of things only, never an e-mail address.
 */
const FIELDS = Symbol('jobLogFields');

/** Attaches `fields` to `err` for the failure's log line; answers `err` (for `throw withJobLogFields(…)`). */
export function withJobLogFields(err: unknown, fields: Record<string, string | number | null>): unknown {
  if (err !== null && typeof err === 'object' && Object.isExtensible(err))
    Object.defineProperty(err, FIELDS, { value: fields, enumerable: false, configurable: true });
  return err;
}

/** The fields a handler attached to `err` (empty when none). */
export function jobLogFieldsOf(err: unknown): Record<string, string | number | null> {
  if (err === null || typeof err !== 'object') return {};
  return (err as { [FIELDS]?: Record<string, string | number | null> })[FIELDS] ?? {};
}
