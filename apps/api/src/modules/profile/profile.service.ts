/** Profile of the signed-in user: GET /auth/me, POST /auth/profile, POST /auth/username (spec 2 Settings, 3 User). */
import { normalizePhone, type User } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { profileRepository as repo } from './profile.repository.js';
import { toUser } from '../auth/auth.service.js';
import type { AvatarService } from './avatar.service.js';

/** A profile change; `null` clears an optional field (names, phone number). */
export interface ProfilePatch {
  givenName?: string | null;
  familyName?: string | null;
  nickname?: string;
  phoneNumber?: string | null;
  locale?: 'en' | 'es';
}

export function createProfileService(deps: { database: Database; avatars: AvatarService }) {
  const db = deps.database.db;
  /** Holders with an avatar upload in flight in this instance (its body being read, checked or decoded). */
  const uploading = new Set<number>();
  return {
    /**
     * Stores a new avatar (see avatar.service.ts) and sets it as the picture. One upload per holder at a time
     * (issue 39, break 9: one holder's slow uploads took both decoding processes, and another holder got 0 of 10
     * uploads through): a second one while the first is in flight is refused before its body is read.
     * @param read reads the upload's bytes (the request body), called only once the upload is admitted.
     * @throws AppError `api.profile.avatar_upload_in_progress` (409) while the holder's previous upload is in
     *   flight; the keys of `AvatarService.store` and of `read`.
     */
    async setAvatar(userId: number, read: () => Promise<Buffer>): Promise<User> {
      if (uploading.has(userId)) throw new AppError('api.profile.avatar_upload_in_progress');
      uploading.add(userId);
      try {
        const picture = await deps.avatars.store(await read());
        return toUser(await repo.updateUser(db, userId, { picture }));
      } finally {
        uploading.delete(userId);
      }
    },
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
