/**
 * The people of an organisation and the console's sign-in (issue 21). Members sign in with the holders' e-mail
 * code (`/v1/auth/*`), then exchange that holder session for a console token of one organisation
 * (`POST /v1/console/session`); organiser routes take that token or an API key, and check the role.
 */
import * as z from 'zod';
import { email } from './auth.js';

const id = z.number().int().positive().max(2_147_483_647);

/** Roles of a member: `owner` everything; `staff` events, tickets, imports, attendance, webhooks; `door` door keys. */
export const ORG_ROLES = ['owner', 'staff', 'door'] as const;
export const orgRole = z.enum(ORG_ROLES);
export type OrgRole = z.infer<typeof orgRole>;

/**
 * What each area of the organiser API lets which roles do (issue 21). An API key acts as an owner (machines have
 * every right of their organisation). The console hides what the member's role cannot open.
 */
export const ORG_AREA_ROLES = {
  /** GET /org/organisation: every member reads the brand (the console's header). */
  read: ['owner', 'staff', 'door'],
  /** Events, ticket types, tickets, imports, attendance, attendees.csv, webhooks. */
  events: ['owner', 'staff'],
  /** Door keys (the scanner's keys). */
  door: ['owner', 'door'],
  /** Branding, members, the audit log (issue 25). */
  owner: ['owner'],
} as const satisfies Record<string, readonly OrgRole[]>;
export type OrgArea = keyof typeof ORG_AREA_ROLES;

/**
 * The console's screens in the order of its navigation, each with the area whose roles open it (issue 21). A
 * screen's name is the first segment of its URLs, `/console/<screen>/…` (issue 41, point 5): the API serves the
 * console's page at each of them, and the console reads the screen from the path.
 */
export const CONSOLE_SCREENS = {
  events: 'events',
  holders: 'events',
  refunds: 'events',
  import: 'events',
  webhooks: 'events',
  keys: 'door',
  branding: 'owner',
  members: 'owner',
  activity: 'owner',
} as const satisfies Record<string, OrgArea>;
export type ConsoleScreen = keyof typeof CONSOLE_SCREENS;

/** POST /v1/org/members body. */
export const memberCreateRequest = z
  .strictObject({ email, role: orgRole })
  .meta({ examples: [{ email: 'door@southern-lights.example', role: 'door' }] });
export type MemberCreateRequest = z.infer<typeof memberCreateRequest>;
/**
 * Query of POST /v1/org/members: `lang`, the language of the console adding the member (`en`, `es`; another value
 * reads as English), which the new account and its invitation take; without it, Accept-Language.
 */
export const memberCreateQuery = z.object({
  lang: z.string().max(35).optional().meta({ description: "the adding console's language: `en` or `es`" }),
});

/** One member: its id (for DELETE), e-mail, role and when it was added (ISO 8601 UTC). */
export const memberItem = z.object({ id, email: z.string(), role: orgRole, createdAt: z.string() }).meta({
  examples: [{ id: 3, email: 'door@southern-lights.example', role: 'door', createdAt: '2027-01-05T09:00:00.000Z' }],
});
export type MemberItem = z.infer<typeof memberItem>;
export const memberList = z.array(memberItem);

/** Path parameters `{ id }` of a member. */
export const memberParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** GET /v1/console/organisations: the organisations the signed-in account is a member of, and its role in each. */
export const membership = z.object({ organisationId: id, slug: z.string(), name: z.string(), role: orgRole });
export type Membership = z.infer<typeof membership>;
export const membershipList = z.array(membership);

/** POST /v1/console/session body: which of the account's organisations the console works on. */
export const consoleSessionRequest = z.strictObject({ organisationId: id });

/**
 * POST /v1/console/session answer: a console token (Bearer on `/v1/org/*`, never on holder routes) valid
 * `expiresIn` seconds, and the membership it acts as. The role is read again on every request.
 */
export const consoleSessionResponse = z.object({
  accessToken: z.string(),
  expiresIn: z.number().int().positive(),
  membership,
});
