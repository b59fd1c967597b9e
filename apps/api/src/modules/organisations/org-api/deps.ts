/**
 * What every part of the organisation API (issue 12, `/v1/org/*`) is built from, and the small helpers they share.
 */
import type { organisations as contract } from '@tp/contract';
import type * as z from 'zod';
import type { Config } from '../../../config.js';
import type { Database, DbOrTx } from '../../../db/client.js';
import { AppError } from '../../../lib/app-error.js';
import { orgApiRepository as repo } from '../org-api.repository.js';
import type { RequestOrganisation } from '../../organiser-scope/org-auth.js';

export type UpsertStatus = z.infer<typeof contract.upsertStatus>;

/** Creates (or finds) an account by e-mail inside the transaction; provided by the auth module. */
/** The account of `email`, created in `locale` when there is none; its id and language. */
export type EnsureUser = (email: string, locale: string, tx: DbOrTx) => Promise<{ id: number; locale: string }>;

/**
 * The settings the organisation API reads: the product name and public URL (the issued ticket's mail), the
 * background import's threshold and chunk size, and the job queue's attempts (decision 040).
 */
export type OrgApiConfig = Pick<
  Config,
  'productName' | 'publicUrl' | 'importBackgroundRows' | 'importChunkRows' | 'jobMaxAttempts' | 'wallet'
>;

/** The organisation API's dependencies (one object, shared by its parts). */
export interface OrgApiDeps {
  database: Database;
  config: OrgApiConfig;
  ensureUser: EnsureUser;
  /** The app's clock (UTC). */
  now: () => Date;
  /** Called after an organisation's brand changed (the branding cache forgets the slug). */
  brandingChanged?: (slug: string) => void;
}

const same = (a: unknown, b: unknown) =>
  a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : (a ?? null) === (b ?? null);

/** The fields of `next` that differ from `current` (dates compared by time, null and undefined alike). */
export function changed<T extends Record<string, unknown>>(current: T, next: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(next).filter(([k, v]) => !same(current[k], v))) as Partial<T>;
}

/**
 * The calling organisation's event by its externalId.
 * @throws AppError `api.org.event_not_found` (404; another organisation's event is not found either).
 */
export async function eventOf(tx: DbOrTx, org: RequestOrganisation, externalId: string) {
  const event = await repo.eventByExternalId(tx, org.id, externalId);
  if (!event) throw new AppError('api.org.event_not_found');
  return event;
}
