/**
 * Keyset paging of the organiser lists (issue 21; the audit log, issue 25): cursors are opaque base64url JSON
 * of the last row's sort key, so a page never shifts when rows are added before it.
 */
import { AppError } from './app-error.js';

/** The opaque cursor of a key. */
const encodeCursor = (key: Record<string, string | number>) => Buffer.from(JSON.stringify(key)).toString('base64url');

/**
 * The key in a cursor, checked by `valid`.
 * @throws AppError `api.org.invalid_cursor` (400) for anything this API did not hand out.
 */
export function decodeCursor<T>(cursor: string, valid: (v: Record<string, unknown>) => T | undefined): T {
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const key = v && typeof v === 'object' ? valid(v as Record<string, unknown>) : undefined;
    if (key !== undefined) return key;
  } catch {
    // fall through
  }
  throw new AppError('api.org.invalid_cursor');
}
/** The row id of an `{ i }` cursor; undefined without one. @throws AppError `api.org.invalid_cursor` (400). */
export const idCursor = (cursor: string | undefined) =>
  cursor === undefined
    ? undefined
    : decodeCursor(cursor, (v) => (Number.isSafeInteger(v.i) && (v.i as number) > 0 ? (v.i as number) : undefined));

/** `rows` cut to `limit` and the cursor of the next page (null on the last). */
export function paged<R, T>(
  rows: R[],
  limit: number,
  key: (r: R) => Record<string, string | number>,
  item: (r: R) => T,
) {
  const more = rows.length > limit;
  const items = rows.slice(0, limit);
  return { items: items.map(item), nextCursor: more ? encodeCursor(key(items[items.length - 1])) : null };
}
