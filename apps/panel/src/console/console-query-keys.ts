/**
 * Every TanStack Query key of the console (decision 024), in one factory like the panel's lib/query-keys.ts:
 * the organiser API's resources. Each `all` key is what a change invalidates; the other keys sit under it.
 */
export const consoleKeys = {
  events: {
    all: ['ORG_EVENTS'] as const,
    list: (when: 'upcoming' | 'past') => ['ORG_EVENTS', when] as const,
    /** One event by its id (GET /org/events/{externalId}): a view of it opened from its URL. */
    detail: (event: string) => ['ORG_EVENTS', 'detail', event] as const,
    /** The event dashboard: attendance counts and check-ins (GET /org/events/{externalId}/attendance, /check-ins). */
    attendance: (event: string) => ['ORG_EVENTS', 'attendance', event] as const,
    checkIns: (event: string) => ['ORG_EVENTS', 'check-ins', event] as const,
    /** How many people a change of its time or place would e-mail (GET /org/events/{externalId}/holders; issue 46). */
    holders: (event: string) => ['ORG_EVENTS', 'holders', event] as const,
    /** The event's exchange queue: settings and counts per type (GET /org/events/{externalId}/exchange; issue 45). */
    exchange: (event: string) => ['ORG_EVENTS', 'exchange', event] as const,
  },
  ticketTypes: {
    of: (event: string | null) => ['ORG_TICKET_TYPES', event] as const,
  },
  tickets: {
    all: ['ORG_TICKETS'] as const,
    list: (search: string, status: string, event: string, cursor: string | undefined) =>
      ['ORG_TICKETS', 'list', search, status, event, cursor] as const,
    detail: (externalId: string) => ['ORG_TICKETS', 'detail', externalId] as const,
  },
  /** What one CSV import takes on this instance (GET /org/tickets/import): rows and bytes. */
  importLimits: ['ORG_IMPORT_LIMITS'] as const,
  /** A background import's progress (GET /org/imports/{importId}; issue 44). */
  importStatus: (importId: string) => ['ORG_IMPORTS', importId] as const,
  organisation: ['ORG_ORGANISATION'] as const,
  /** The organisation's payout account (GET /org/payout-account; issue 45): where released tickets are paid. */
  payoutAccount: ['ORG_PAYOUT_ACCOUNT'] as const,
  /** The deployment's Stripe publishable key (GET /v1/config): Stripe's onboarding, else the sandbox form. */
  stripeKey: ['ORG_STRIPE_KEY'] as const,
  members: ['ORG_MEMBERS'] as const,
  /** The audit trail (issue 25): one page per action filter and cursor. */
  auditLog: {
    list: (action: string, cursor: string | undefined) => ['ORG_AUDIT_LOG', action, cursor] as const,
  },
  doorKeys: ['ORG_DOOR_KEYS'] as const,
  apiKeys: ['ORG_API_KEYS'] as const,
  webhooks: {
    all: ['ORG_WEBHOOKS'] as const,
    deliveries: (endpointId: number, cursor: number | undefined) =>
      ['ORG_WEBHOOKS', 'deliveries', endpointId, cursor] as const,
  },
  /** Holders' refund requests (GET /org/refund-requests; issue 46): one page per status and cursor. */
  refundRequests: {
    all: ['ORG_REFUND_REQUESTS'] as const,
    list: (status: string, cursor: string | undefined) => ['ORG_REFUND_REQUESTS', status, cursor] as const,
  },
  /** The holder panel's branding of the organisation (GET /v1/organisations/{slug}), for the preview. */
  branding: (slug: string) => ['ORG_BRANDING', slug] as const,
};
