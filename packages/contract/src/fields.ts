/**
 * Field schemas that keep a user's mistake out of the database's way (issue 14: no 500s): ids fit a
 * PostgreSQL `integer`, text holds no NUL character (which a `text` column refuses), an instant falls in the years a
 * `timestamptz` takes as we send it.
 */
import * as z from 'zod';

/** The largest PostgreSQL `integer` (`serial` ids, counts). */
export const INT4_MAX = 2_147_483_647;
/** The id of a stored row: a positive 32-bit integer. */
export const rowId = z.number().int().positive().max(INT4_MAX);
/** A count of tickets in one request: positive, at most `INT4_MAX`. */
export const count = z.number().int().positive().max(INT4_MAX);
/** True for text without a NUL character (use with `.refine`). */
export const hasNoNul = (s: string): boolean => !s.includes('\u0000');

/** A UUID in its text form (8-4-4-4-12 hex digits, any case): ids made by `gen_random_uuid()` / `randomUUID()`. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** True when `value` is a UUID, so a lookup never hands a `uuid` column text it refuses (a 500). */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/**
 * An instant in ISO 8601 with an offset (`2027-03-01T18:00:00+11:00`), in the years 1 to 9999 once in UTC: a date is
 * sent to PostgreSQL as its `toISOString()`, which it refuses for year 0 (1 BC) and writes as `+010000-…` from year
 * 10000 (both were a 500; issue 46 audit).
 */
export const instant = z.iso
  .datetime({ offset: true })
  .refine((v) => {
    const year = new Date(v).getUTCFullYear();
    return year >= 1 && year <= 9999;
  }, 'a year from 1 to 9999 (in UTC)')
  .meta({ description: 'ISO 8601 with an offset, e.g. 2027-03-01T18:00:00+11:00' });
