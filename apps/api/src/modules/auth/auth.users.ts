/**
 * Accounts as the auth module makes and shows them (spec section 3, User; issue 13, privacy): the User entity of a
 * user row, the neutral default nickname, and the creation of an account with a unique username suffix.
 */
import { randomInt } from 'node:crypto';
import { fullName, isLocale, usernameOf, type User } from '@tp/contract';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { text } from '../../lib/i18n.js';
import { authRepository as repo, type UserRow } from './auth.repository.js';

/** Maps a user row to the User entity of spec section 3. */
export function toUser(u: UserRow): User {
  return {
    email: u.email,
    givenName: u.givenName,
    familyName: u.familyName,
    middleName: null,
    name: fullName(u),
    nickname: u.nickname,
    preferredUsername: usernameOf(u),
    uniqueID: `#${u.usernameSuffix}`,
    picture: u.picture,
    phoneNumber: u.phoneNumber,
    locale: u.locale,
    address: null,
    birthdate: null,
    gender: null,
    profile: null,
    website: null,
    zoneInfo: null,
    reminders: u.remindersOffAt === null,
  };
}

/**
 * The default nickname of a new account (issue 13, privacy): a neutral word in the account's language,
 * never derived from the e-mail address; the username is `nickname#suffix` with the random suffix.
 */
export function defaultNickname(locale: string): string {
  return text(isLocale(locale) ? locale : 'en', 'account.default_nickname');
}

/**
 * Creates the account of `email` with a fresh unique numeric suffix (4 digits, more if crowded), or returns the
 * account a parallel sign-in created first.
 * @throws AppError `api.auth.internal_error` (500) when no free suffix was found in 50 tries
 */
export async function createUser(tx: DbOrTx, email: string, locale: string): Promise<UserRow> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const digits = attempt < 20 ? 4 : attempt < 40 ? 6 : 9;
    const suffix = randomInt(10 ** (digits - 1), 10 ** digits);
    const created = await repo.insertUser(tx, {
      email,
      nickname: defaultNickname(locale),
      usernameSuffix: suffix,
      locale,
    });
    if (created) return created;
    const existing = await repo.userByEmail(tx, email);
    if (existing) return existing;
  }
  throw new AppError('api.auth.internal_error');
}
