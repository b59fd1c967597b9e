/**
 * The organiser scope (issue 43): one Fastify plugin, an encapsulated scope under /v1 for `/org/*` and `/admin/*`,
 * holding every hook the organiser side shares (issue 19 break 8, issue 21):
 * - who calls: an organisation API key or a member's console token (`requireOrganisation(area)`), or ADMIN_KEY
 *   (`requireAdmin`) — org-auth.ts;
 * - how often: wrong keys of either kind per IP (config `keyFailuresPerMinute`), and requests per organisation
 *   (config `orgApiPerMinute`, every key and member of the organisation together).
 * The modules' route functions of the scope receive its pre-handlers from {@link organiserScope}.
 */
import type { FastifyPluginCallback } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App, PreHandler } from '../../lib/http.js';
import { ipKey } from '../../lib/rate-limit.js';
import {
  requireAdminWith,
  requireOrganisationWith,
  type AuthenticateConsole,
  type RequireOrganisation,
} from './org-auth.js';

/** The scope's pre-handlers, given to each route function registered in it. */
export interface OrganiserHooks {
  /** An organisation API key or a member's console token whose role the area lets in. */
  requireOrganisation: RequireOrganisation;
  /** `Authorization: Bearer <ADMIN_KEY>`. */
  requireAdmin: PreHandler;
}

/**
 * The organiser scope as a plugin: creates its limiters and pre-handlers, then lets `routes` register the scope's
 * routes (and anything scoped to it, such as a body parser) with them.
 * @param deps.authenticateConsole a console token's account and organisation (the auth module)
 */
export function organiserScope(
  deps: {
    database: Database;
    now: () => Date;
    config: Pick<Config, 'adminKey' | 'keyFailuresPerMinute' | 'orgApiPerMinute'>;
    authenticateConsole: AuthenticateConsole;
  },
  routes: (scope: App, hooks: OrganiserHooks) => void,
): FastifyPluginCallback {
  return (instance, _opts, done) => {
    const scope: App = instance.withTypeProvider<ZodTypeProvider>();
    // Wrong organisation or admin keys per IP; requests per organisation (issue 19, break 8).
    const failures = scope.createRateLimit({
      max: deps.config.keyFailuresPerMinute,
      timeWindow: '1 minute',
      keyGenerator: (req) => `keyfail:${ipKey(req)}`,
    });
    const perOrganisation = scope.createRateLimit({
      max: deps.config.orgApiPerMinute,
      timeWindow: '1 minute',
      keyGenerator: (req) => `org:${req.organisation.id}`,
    });
    const requireOrganisation = requireOrganisationWith({
      database: deps.database,
      now: deps.now,
      authenticateConsole: deps.authenticateConsole,
      failures,
      perOrganisation,
    });
    const requireAdmin = requireAdminWith(deps.config.adminKey, failures);
    routes(scope, { requireOrganisation, requireAdmin });
    done();
  };
}
