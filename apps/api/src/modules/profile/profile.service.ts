/** Profile of the signed-in user: GET /auth/me, POST /auth/profile, POST /auth/username (spec 2 Settings, 3 User). */
import { normalizePhone, type Locale, type User } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { profileRepository as repo } from './profile.repository.js';
import { toUser } from '../auth/auth.users.js';
import { avatarHolderKey, type AvatarService } from './avatar.service.js';

/** A profile change; `null` clears an optional field (names, phone number). */
export interface ProfilePatch {
  givenName?: string | null;
  familyName?: string | null;
  nickname?: string;
  phoneNumber?: string | null;
  locale?: Locale;
}

/**
 * Avatar uploads one client address may have in flight at once (issue 39 item 9, re-audit): the decoding processes
 * (AVATAR_CONCURRENCY, 2) and their queue are shared, so accounts from one address hold one process at most,
 * whatever their number, and the other stays free for everyone else (two per address still starved another
 * address: both processes busy until the deadline). Holders behind one address (a venue's Wi-Fi) rarely upload in
 * the same second; a refused one is answered 429 and retries.
 */
export const AVATAR_UPLOADS_PER_ADDRESS = 1;

/**
 * How long a ticket must have been a holder's to give them standing in the avatar queue, seconds (avatar.scheduler.ts
 * rule 7): a gift ring hands one ticket to a new account every few milliseconds, each of which then had it.
 */
export const AVATAR_STANDING_HELD_SECONDS = 3600;

export function createProfileService(deps: { database: Database; avatars: AvatarService; now: () => Date }) {
  const db = deps.database.db;
  /** Holders with an avatar upload in flight in this instance (its body being read, checked or decoded). */
  const uploading = new Set<number>();
  /** Avatar uploads in flight in this instance per client address (`ipKey`). */
  const byAddress = new Map<string, number>();
  return {
    /**
     * Stores a new avatar (see avatar.service.ts) and sets it as the picture. One upload per holder at a time
     * (issue 39, break 9: one holder's slow uploads took both decoding processes, and another holder got 0 of 10
     * uploads through), and AVATAR_UPLOADS_PER_ADDRESS per client address (the re-audit: ten accounts from one
     * address held both processes and the queue): another one is refused before its body is read.
     * @param address the client's address key (`ipKey`).
     * @param read reads the upload's bytes (the request body), called only once the upload is admitted.
     * @throws AppError `api.profile.avatar_upload_in_progress` (409) while the holder's previous upload is in
     *   flight, `api.profile.avatar_busy` (429) while the address has AVATAR_UPLOADS_PER_ADDRESS in flight; the keys
     *   of `AvatarService.store` and of `read`.
     */
    async setAvatar(userId: number, address: string, read: () => Promise<Buffer>): Promise<User> {
      if (uploading.has(userId)) throw new AppError('api.profile.avatar_upload_in_progress');
      const fromAddress = byAddress.get(address) ?? 0;
      if (fromAddress >= AVATAR_UPLOADS_PER_ADDRESS) throw new AppError('api.profile.avatar_busy');
      uploading.add(userId);
      byAddress.set(address, fromAddress + 1);
      try {
        // A holder of a ticket goes before accounts that hold none when the decoding queue is full (avatar.scheduler.ts
        // rule 7): those cost an attacker a sign-in each, a ticket costs money.
        const heldSince = new Date(deps.now().getTime() - AVATAR_STANDING_HELD_SECONDS * 1000);
        const newcomer = !(await repo.holdsTicket(db, userId, heldSince));
        const picture = await deps.avatars.store(await read(), [address, avatarHolderKey(userId)], { newcomer });
        return toUser(await repo.updateUser(db, userId, { picture }));
      } finally {
        uploading.delete(userId);
        const left = (byAddress.get(address) ?? 1) - 1;
        if (left > 0) byAddress.set(address, left);
        else byAddress.delete(address);
      }
    },
    /** GET /auth/me: the signed-in account (`req.account`, read with its session by `requireAuth`) as a `User`. */
    asUser: toUser,
    /** @throws AppError `api.unauthorized` when the user no longer exists. */
    async me(userId: number): Promise<User> {
      const u = await repo.userById(db, userId);
      if (!u) throw new AppError('api.unauthorized');
      return toUser(u);
    },
    /**
     * Applies changed fields (`null` clears a name or the phone number). The username suffix never changes; the
     * phone number is stored normalised (`normalizePhone` of @tp/contract).
     * @throws AppError `api.profile.email_or_phone_in_use` (409) when the phone number belongs to someone else,
     *   `api.profile.username_taken` (409) when `nickname#suffix` is someone else's.
     */
    async update(userId: number, input: ProfilePatch): Promise<User> {
      const patch = input.phoneNumber ? { ...input, phoneNumber: normalizePhone(input.phoneNumber) } : input;
      // Nothing editable in the body (only read-only fields of the stored user): nothing to change.
      if (Object.keys(patch).length === 0) return this.me(userId);
      // A number with no digit left ("(-)") is no number: the contract refuses it; so does the rule.
      if (typeof patch.phoneNumber === 'string' && patch.phoneNumber.replace('+', '') === '')
        throw new AppError('api.invalid_request_body');
      if (patch.phoneNumber) {
        const holder = await repo.userByPhone(db, patch.phoneNumber);
        if (holder && holder.id !== userId) throw new AppError('api.profile.email_or_phone_in_use');
      }
      if (patch.nickname) {
        const me = await repo.userById(db, userId);
        const holder = me && (await repo.userByUsername(db, patch.nickname, me.usernameSuffix));
        if (holder && holder.id !== userId) throw new AppError('api.profile.username_taken');
      }
      const written = await repo.updateProfile(db, userId, patch);
      // A concurrent change took the phone number or username between the check and the write.
      if (!written.ok)
        throw new AppError(
          written.constraint.includes('username') ? 'api.profile.username_taken' : 'api.profile.email_or_phone_in_use',
        );
      if (!written.value) throw new AppError('api.unauthorized');
      return toUser(written.value);
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
