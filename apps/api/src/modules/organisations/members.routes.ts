/**
 * Routes of an organisation's members and of the console's sign-in (issue 21):
 * - `/org/members` (owners; an API key acts as one): add by e-mail with a role (lasting access: from the console a
 *   step-up, `member_add`, decision 048), list, remove;
 * - `/console/organisations` and `/console/session` (a holder's access token from the e-mail code sign-in): the
 *   organisations the account is a member of, and a console token for one of them. Organiser routes take that
 *   token; holder routes refuse it.
 */
import * as z from 'zod';
import { members as contract } from '@tp/contract';
import type { App, PreHandler } from '../../lib/http.js';
import { errors, securityOf } from '../../lib/openapi.js';
import type { MembersService } from './members.service.js';
import type { RequireOrganisation } from '../organiser-scope/org-auth.js';
import { pickLang, queryLang } from '../../lib/lang.js';

const orgSecurity = securityOf('organisationApiKey');

export function membersRoutes(
  app: App,
  deps: {
    members: MembersService;
    requireOrganisation: RequireOrganisation;
    requireAuth: PreHandler;
    /** Signs a console token for the holder session (the auth module's `consoleToken`). */
    consoleToken: (
      claims: { userId: number; sessionId: string },
      organisationId: number,
    ) => { accessToken: string; expiresIn: number };
  },
) {
  const owner = { preHandler: deps.requireOrganisation('owner') };
  app.post(
    '/org/members',
    {
      ...owner,
      config: { stepUp: 'member_add' },
      schema: {
        operationId: 'addMember',
        summary: 'Add a member by e-mail with a role (owner, staff or door); they sign in to /console by e-mail code',
        security: orgSecurity,
        querystring: contract.memberCreateQuery,
        body: contract.memberCreateRequest,
        response: { 201: contract.memberItem, ...errors(400, 401, 403, 409) },
      },
    },
    // A new member's account and invitation take the language of the console that added them (`?lang=`, which the
    // console sends, else Accept-Language).
    async (req, reply) =>
      reply
        .code(201)
        .send(
          await deps.members.add(req.organisation, req.body, pickLang(queryLang(req), req.headers['accept-language'])),
        ),
  );
  app.get(
    '/org/members',
    {
      ...owner,
      schema: {
        operationId: 'listMembers',
        summary: "Your organisation's members and their roles",
        security: orgSecurity,
        response: { 200: contract.memberList, ...errors(401, 403) },
      },
    },
    async (req) => deps.members.list(req.organisation),
  );
  app.delete(
    '/org/members/:id',
    {
      ...owner,
      schema: {
        operationId: 'removeMember',
        summary: 'Remove a member (at their next request); the last owner stays',
        security: orgSecurity,
        params: contract.memberParams,
        response: { 204: z.null(), ...errors(401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      await deps.members.remove(req.organisation, req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/console/organisations',
    {
      preHandler: deps.requireAuth,
      schema: {
        operationId: 'listConsoleOrganisations',
        summary: 'The organisations the signed-in account is a member of, with its role in each',
        response: { 200: contract.membershipList },
      },
    },
    async (req) => deps.members.membershipsOf(req.auth.userId),
  );
  app.post(
    '/console/session',
    {
      preHandler: deps.requireAuth,
      schema: {
        operationId: 'openConsoleSession',
        summary: 'A console token for one of your organisations (Bearer on /v1/org/*)',
        description:
          "Exchanges the holder's access token for a token of the console, acting on `organisationId` with the member's role (read again on every request). It ends with the sign-in (logout) and after `expiresIn` seconds; ask again with a fresh access token.",
        body: contract.consoleSessionRequest,
        response: { 200: contract.consoleSessionResponse, ...errors(403) },
      },
    },
    async (req) => {
      const membership = await deps.members.membershipOf(req.auth.userId, req.body.organisationId);
      const token = deps.consoleToken(
        { userId: req.auth.userId, sessionId: req.auth.sessionId },
        membership.organisationId,
      );
      return { ...token, membership };
    },
  );
}
