/**
 * Reminder e-mails on or off (issue 41 point 9): the reminder's `List-Unsubscribe` link (RFC 2369) with one-click
 * unsubscribe (RFC 8058) and the holder's own switch (`PUT /v1/auth/reminders`). The link carries a signed token
 * (`createUnsubscribeTokens`, no sign-in needed); a `POST` to it turns that holder's reminders off, a `GET` only
 * shows where they stand (link scanners prefetch GETs). Housekeeping claims no reminder for a holder who turned
 * them off (`users.reminders_off_at`).
 */
import type { User } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { UnsubscribeTokens } from '../auth/auth.tokens.js';
import { toUser } from '../auth/auth.users.js';
import { profileRepository as repo } from './profile.repository.js';

/**
 * How long an unsubscribe link works, seconds (90 days): a holder may act on a reminder weeks after it came; a
 * link found later answers `api.reminders.unsubscribe_invalid` and its page points to the panel's settings.
 */
export const UNSUBSCRIBE_TTL_SECONDS = 90 * 24 * 3600;

/** The path of the unsubscribe link, before its token: GET shows the page, POST unsubscribes. */
export const UNSUBSCRIBE_PATH = '/v1/reminders/unsubscribe';

export function createRemindersService(deps: {
  database: Database;
  tokens: UnsubscribeTokens;
  /** This service's public URL (PUBLIC_URL): the link's origin. */
  publicUrl: string;
  now: () => Date;
}) {
  const db = deps.database.db;

  /** The user id of a live token whose account exists. @throws AppError `api.reminders.unsubscribe_invalid` (400) */
  async function holderOf(token: string) {
    const userId = deps.tokens.verify(token, deps.now());
    const user = userId === null ? undefined : await repo.userById(db, userId);
    if (!user || user.deletedAt) throw new AppError('api.reminders.unsubscribe_invalid');
    return user;
  }

  return {
    /**
     * The unsubscribe link of `userId`'s reminder e-mails: `<PUBLIC_URL>/v1/reminders/unsubscribe?token=<token>`, with
     * `lang` (the page's language) and `org` (its brand) when given; a query, not a path segment (a token is longer
     * than a path parameter may be, and access log lines name the route, never the query). The token is valid
     * UNSUBSCRIBE_TTL_SECONDS.
     */
    unsubscribeUrl(userId: number, opts: { lang: string; org: string | null }): string {
      const query = new URLSearchParams({ token: deps.tokens.sign(userId, deps.now()), lang: opts.lang });
      if (opts.org) query.set('org', opts.org);
      return `${deps.publicUrl}${UNSUBSCRIBE_PATH}?${query.toString()}`;
    },
    /**
     * Whether the token's holder gets reminders now (the page's question or its answer); changes nothing.
     * @throws AppError `api.reminders.unsubscribe_invalid` (400) for a malformed, forged or expired token, or one
     *   whose account no longer exists
     */
    async remindersOn(token: string): Promise<boolean> {
      return (await holderOf(token)).remindersOffAt === null;
    },
    /**
     * Turns the token's holder's reminders off (one-click unsubscribe, RFC 8058). Idempotent: an unsubscribed
     * holder stays unsubscribed since the first time.
     * @throws AppError `api.reminders.unsubscribe_invalid` (400), as `remindersOn`
     */
    async unsubscribe(token: string): Promise<void> {
      const user = await holderOf(token);
      await repo.setReminders(db, user.id, false, deps.now());
    },
    /**
     * The signed-in holder's own switch: reminders on (`true`) or off. @returns the updated User
     * @throws AppError `api.unauthorized` (401) when the user no longer exists
     */
    async setReminders(userId: number, on: boolean): Promise<User> {
      const row = await repo.setReminders(db, userId, on, deps.now());
      if (!row) throw new AppError('api.unauthorized');
      return toUser(row);
    },
  };
}
export type RemindersService = ReturnType<typeof createRemindersService>;
