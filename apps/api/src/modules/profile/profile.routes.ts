/** Routes: GET /auth/me, POST /auth/profile, POST /auth/username, POST /auth/avatar (multipart `file`). */
import { AVATAR_MAX_BYTES, auth } from '@tp/contract';
import type { FastifyReply } from 'fastify';
import * as z from 'zod';
import type { App, PreHandler } from '../../lib/http.js';
import { AppError } from '../../lib/app-error.js';
import { errors } from '../../lib/openapi.js';
import { ipKey, withinLimit } from '../../lib/rate-limit.js';
import type { ProfileService } from './profile.service.js';

/** Largest avatar request body, bytes: the file and the multipart framing around it. */
const UPLOAD_MAX_BYTES = AVATAR_MAX_BYTES + 64 * 1024;

/**
 * Refuses an oversized upload; `close`: the connection is closed once answered, so that the rest of a body
 * that passed AVATAR_MAX_BYTES while streaming is not read. @throws AppError `api.profile.avatar_too_large` (413).
 */
function tooLarge(reply: FastifyReply, close: boolean): never {
  if (close) reply.header('connection', 'close');
  throw new AppError('api.profile.avatar_too_large');
}

/** Reads `body` to its end and drops it, for at most `ms` milliseconds (a client that stalls is not waited for). */
function discardBody(body: NodeJS.ReadableStream & { complete?: boolean }, ms: number): Promise<void> {
  if (body.complete) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    body.on('end', done).on('error', done).on('close', done);
    body.resume();
  });
}

export function profileRoutes(
  app: App,
  deps: {
    profile: ProfileService;
    requireAuth: PreHandler;
    /** Avatar uploads per holder a minute (config `avatarUploadsPerHolderPerMinute`). */
    uploadsPerMinute: number;
  },
) {
  const uploadsPerHolder = app.createRateLimit({
    max: deps.uploadsPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (req) => `avatar:${req.auth.userId}`,
  });
  const pre = { preHandler: deps.requireAuth };
  app.get(
    '/auth/me',
    { ...pre, schema: { operationId: 'getMe', summary: 'The signed-in holder', response: { 200: auth.user } } },
    // The account as `requireAuth` read it with the session: no second read (decision 051).
    (req) => deps.profile.asUser(req.account),
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
      // Counted per holder after the token is checked, before the body is read (the refusal reads it to its end).
      preHandler: [deps.requireAuth, (req) => withinLimit(uploadsPerHolder, req, 'avatar')],
      bodyLimit: UPLOAD_MAX_BYTES,
      // Decided on the header, before the body is read (issue 19, break 1): an oversized upload is answered
      // at once and its body is never parsed (Node discards it unread, which lets the client, still sending,
      // read the answer; closing the connection instead would fail a browser's or fetch's upload with EPIPE).
      onRequest: async (req, reply) => {
        if (Number(req.headers['content-length'] ?? 0) > UPLOAD_MAX_BYTES) tooLarge(reply, false);
      },
      schema: {
        operationId: 'uploadAvatar',
        summary: 'Upload a profile picture (multipart `file`; re-encoded to WebP)',
        consumes: ['multipart/form-data'],
        // Read by @fastify/multipart in the handler, so documented only (issue 41, point 10): one part, `file`.
        requestBody: {
          content: {
            'multipart/form-data': {
              schema: z.object({
                file: z.string().meta({
                  format: 'binary',
                  description: `The picture (HEIC, WebP, SVG, PNG or JPEG), at most ${AVATAR_MAX_BYTES} bytes`,
                }),
              }),
            },
          },
        },
        response: { 200: auth.user, ...errors(409, 413, 422, 429) },
      },
    },
    async (req, reply) => {
      if (!req.isMultipart()) throw new AppError('api.invalid_request_body');
      // A malformed multipart body (no boundary, cut short, too many fields before the file) is the
      // client's mistake: busboy's errors carry no HTTP status, so they are named here.
      const malformed = (err: { code?: string }): never => {
        if (err instanceof AppError) throw err;
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') tooLarge(reply, true);
        throw new AppError('api.invalid_request_body');
      };
      // The body is read only once the upload is admitted (one at a time per holder and per address, issue 39).
      let read = false;
      return deps.profile
        .setAvatar(req.auth.userId, ipKey(req), async () => {
          read = true;
          const file = await req.file({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } }).catch(malformed);
          if (!file) throw new AppError('api.invalid_request_body');
          return file.toBuffer().catch(malformed);
        })
        .catch(async (err: unknown) => {
          // Refused before the body was read (409, 429): read it to its end (at most UPLOAD_MAX_BYTES, checked on
          // the header) so the client, still sending, gets the answer rather than a reset connection.
          if (!read) await discardBody(req.raw, 10_000);
          throw err;
        });
    },
  );
}
