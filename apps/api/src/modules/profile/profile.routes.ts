/** Routes: GET /auth/me, POST /auth/profile, POST /auth/username. */
import { auth } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import type { ProfileService } from './profile.service.js';

export function profileRoutes(app: App, deps: { profile: ProfileService; requireAuth: PreHandler }) {
  const pre = { preHandler: deps.requireAuth };
  app.get('/auth/me', { ...pre, schema: { tags: ['profile'], response: { 200: auth.user } } }, async (req) => deps.profile.me(req.auth.userId));
  app.post('/auth/profile', { ...pre, schema: { tags: ['profile'], body: auth.profileUpdate, response: { 200: auth.user } } },
    async (req) => deps.profile.update(req.auth.userId, req.body));
  app.post('/auth/username', { ...pre, schema: { tags: ['profile'], body: auth.usernameUpdate, response: { 200: auth.user } } },
    async (req) => deps.profile.update(req.auth.userId, { nickname: req.body.username }));
}
