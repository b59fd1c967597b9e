/**
 * POST /v1/auth/avatar, multipart field `file` (docs/decisions/001): uploads a HEIC, WEBP, SVG, PNG or JPG
 * picture (at most 10 MB); the server re-encodes it to WebP and answers the updated User whose `picture`
 * is a path on the assets host. Refreshes USER. Errors: ApiError with api.profile.avatar_invalid (400),
 * api.profile.avatar_too_large (413).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { User } from '@tp/contract';
import { client } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export const uploadAvatar = async (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  const user: User = await client.POST('/v1/auth/avatar', { body: form });
  return user;
};

export function useUploadAvatar() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: uploadAvatar,
    onSuccess: (user) => {
      qc.setQueryData(queryKeys.user.all, user);
      void qc.invalidateQueries({ queryKey: queryKeys.user.all });
    },
  });
}
