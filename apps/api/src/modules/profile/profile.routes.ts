/** Routes: GET /auth/me, POST /auth/profile, POST /auth/username, POST /auth/avatar (multipart `file`). */
import { AVATAR_MAX_BYTES, auth } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { AppError } from '../../lib/app-error.js';
import { errors } from '../../lib/openapi.js';
import type { ProfileService } from './profile.service.js';

export function profileRoutes(app: App, deps: { profile: ProfileService; requireAuth: PreHandler }) {
  const pre = { preHandler: deps.requireAuth };
  app.get(
    '/auth/me',
    { ...pre, schema: { operationId: 'getMe', summary: 'The signed-in holder', response: { 200: auth.user } } },
    async (req) => deps.profile.me(req.auth.userId),
  );
  app.post(
    '/auth/profile',
    {
      ...pre,
      schema: {
        operationId: 'updateProfile',
        summary: 'Change name, nickname, e-mail, phone or language',
        body: auth.profileUpdate,
        response: { 200: auth.user, ...errors(409) },
      },
    },
    async (req) => deps.profile.update(req.auth.userId, req.body),
  );
  app.post(
    '/auth/username',
    {
      ...pre,
      schema: {
        operationId: 'updateUsername',
        summary: 'Change the nickname',
        body: auth.usernameUpdate,
        response: { 200: auth.user, ...errors(409) },
      },
    },
    async (req) => deps.profile.update(req.auth.userId, { nickname: req.body.username }),
  );
  app.post(
    '/auth/avatar',
    {
      ...pre,
      bodyLimit: AVATAR_MAX_BYTES + 64 * 1024,
      schema: {
        operationId: 'uploadAvatar',
        summary: 'Upload a profile picture (multipart `file`; re-encoded to WebP)',
        consumes: ['multipart/form-data'],
        response: { 200: auth.user, ...errors(422, 429) },
      },
    },
    async (req) => {
      if (!req.isMultipart()) throw new AppError('api.invalid_request_body');
      // A malformed multipart body (no boundary, cut short, too many fields before the file) is the
      // client's mistake: busboy's errors carry no HTTP status, so they are named here.
      const malformed = (err: { code?: string }): never => {
        if (err instanceof AppError) throw err;
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('api.profile.avatar_too_large');
        throw new AppError('api.invalid_request_body');
      };
      const file = await req.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } }).catch(malformed);
      if (!file) throw new AppError('api.invalid_request_body');
      const bytes = await file.toBuffer().catch(malformed);
      return deps.profile.setAvatar(req.auth.userId, bytes);
    },
  );
}
