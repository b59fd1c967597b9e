/**
 * The platform admin's view of the durable job queue (issue 25, decision 030): jobs whose attempts ran out (a mail
 * the SMTP server kept refusing, …), kept for the operator, and putting one back in the queue. Times ISO 8601 UTC.
 */
import * as z from 'zod';

/** GET /v1/admin/jobs/failed query: at most `limit` jobs (default 100). */
export const failedJobsQuery = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) });

/**
 * One failed job. The payload is not shown (a mail's holds its recipient and may hold a sign-in code): only what it
 * was for, a mail's template and recipient user id (issue 41 point 8).
 */
export const failedJob = z.object({
  id: z.number().int(),
  /** The handler it was for, e.g. `mail`. */
  kind: z.string(),
  /** Claims it had, the last of which failed. */
  attempts: z.number().int(),
  /** The last failure's message (e.g. the SMTP server's answer). */
  lastError: z.string().nullable(),
  failedAt: z.string(),
  createdAt: z.string(),
  /** A mail job's template (`reminder`, `ticketIssued`, `signInCode`, …); null for a job of another kind. */
  template: z
    .string()
    .nullable()
    .meta({ description: "A mail job's template (e.g. `reminder`); null for other kinds." }),
  /**
   * The user id of the mail's recipient (its address is never shown); null for another kind, or an address without
   * an account (a resale buyer's).
   */
  recipientUserId: z.number().int().nullable().meta({
    description: "The mail's recipient's user id (never the address); null without an account or for other kinds.",
  }),
});
export const failedJobsResponse = z.array(failedJob);

/** Path parameter `{ id }` of a job. */
export const jobParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
