/** Profile of the signed-in user: GET /auth/me, POST /auth/profile, POST /auth/username (spec 2 Settings, 3 User). */
import type { User } from '@tp/contract';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import { profileRepository as repo } from './profile.repository.js';
import { toUser } from '../auth/auth.service.js';

export interface ProfilePatch { givenName?: string; familyName?: string; nickname?: string; phoneNumber?: string; locale?: 'en' | 'es' }

export function createProfileService(deps: { database: Database }) {
  const db = deps.database.db;
  return {
    /** @throws AppError `api.unauthorized` when the user no longer exists. */
    async me(userId: number): Promise<User> {
      const u = await repo.userById(db, userId);
      if (!u) throw new AppError('api.unauthorized');
      return toUser(u);
    },
    /**
     * Applies changed fields. The username suffix never changes.
     * @throws AppError `api.profile.email_or_phone_in_use` (409) when the phone number belongs to someone else.
     */
    async update(userId: number, patch: ProfilePatch): Promise<User> {
      if (patch.phoneNumber) {
        const holder = await repo.userByPhone(db, patch.phoneNumber);
        if (holder && holder.id !== userId) throw new AppError('api.profile.email_or_phone_in_use');
      }
      try {
        return toUser(await repo.updateUser(db, userId, patch));
      } catch (err) {
        if ((err as { code?: string }).code === '23505' || String((err as Error).message).includes('unique')) {
          throw new AppError('api.profile.email_or_phone_in_use');
        }
        throw err;
      }
    },
  };
}
export type ProfileService = ReturnType<typeof createProfileService>;
