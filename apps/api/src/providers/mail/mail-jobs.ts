/**
 * Every e-mail is a `mail` job of the durable queue (issue 25, decision 030): the payload says what to render — the
 * template, its params, the recipient, the language and the organisation — and the mail is rendered when it is sent
 * (a 10,000-row import enqueues 10,000 small rows, not 10,000 rendered HTML bodies). `enqueueMails` takes the
 * transaction of the work that causes the mails, so they exist iff it commits; the job worker runs
 * `createMailJobHandler`'s handler, which renders (`templates.ts`, under `brand.ts`'s brand) and sends.
 */
import { auth, LOCALES, ORG_ROLES } from '@tp/contract';
import { getDomain } from 'tldts';
import * as z from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { mapSliced } from '../../lib/time-slice.js';
import { withJobLogFields } from '../jobs/job-log.js';
import { enqueueJobs, permanentJobFailure, type JobHandler, type JobInput } from '../jobs/job-queue.js';
import { mailBrand } from './brand.js';
import { LOGO_CID } from './mail-logo.js';
import type { RenderedMail } from './layout.js';
import type { MailProvider } from './mail.provider.js';
import {
  eventChangedMail,
  eventCancelledMail,
  giftReceivedMail,
  giftSentMail,
  listingSoldMail,
  reminderMail,
  resaleCodeMail,
  signInCodeMail,
  stepUpCodeMail,
  swapDoneMail,
  ticketRevokedMail,
  TICKET_REVOKED_REASONS,
  refundApprovedMail,
  refundDeclinedMail,
  memberInvitedMail,
  ticketIssuedMail,
  exchangeOfferedMail,
  exchangeEndedMail,
  exchangePurchasedMail,
  type MailAttachment,
} from './templates.js';

/** The job kind of e-mails. */
export const MAIL_JOB = 'mail';

/** A time: a Date when enqueued, its ISO 8601 string in the stored JSON. */
const time = z.union([z.date(), z.iso.datetime({ offset: true })]).transform((v) => new Date(v));

/**
 * The organisation whose brand the mail wears (a row of `organisations`), or null for the product's. Its `logoUrl`
 * is no longer shown (issue 41 point 9): the handler attaches the organisation's fetched logo (`logoOf`) instead.
 */
const organisation = z
  .object({ slug: z.string(), name: z.string(), logoUrl: z.string().nullable(), primaryColor: z.string().nullable() })
  .nullable();

/** `templates.ts`'s `MailTicket`: the event's facts (its own time zone), the ticket type, the calendar id. */
const ticket = z.object({
  event: z.object({
    name: z.string(),
    startsAt: time,
    endsAt: time,
    timeZone: z.string(),
    venue: z.string(),
    address1: z.string(),
    city: z.string(),
    latitude: z.number().nullable(),
    longitude: z.number().nullable(),
  }),
  ticketName: z.string(),
  calendarId: z.string(),
  wallet: z.object({ apple: z.boolean(), google: z.boolean(), link: z.string() }).optional(),
});

/** A field's old and new value. */
const change = <T extends z.ZodType>(value: T) => z.object({ from: value, to: value }).optional();

/**
 * What an event's change of time or place changed (issue 46), each field with its old and its new value as they were
 * when the change was saved, so a queued mail tells that change: the times (each written in the zone it was set in),
 * the time zone, the venue, street address, city, country (ISO 3166 code) and the map position (null: none).
 */
const eventChanges = z.object({
  startsAt: change(time),
  endsAt: change(time),
  timeZone: change(z.string()),
  venue: change(z.string()),
  address1: change(z.string()),
  city: change(z.string()),
  country: change(z.string()),
  position: change(z.object({ latitude: z.number(), longitude: z.number() }).nullable()),
});
export type EventChanges = z.input<typeof eventChanges>;

/** A ticket e-mail's params: the ticket, the panel link (with `?org=`), when it was made (the `.ics` stamp). */
const ticketParams = { ticket, link: z.string(), at: time };

const common = {
  to: z.string(),
  locale: z.enum(LOCALES),
  org: organisation,
  /** Files made by the module that enqueues (the resale code's PDF), base64: not something a template renders. */
  attachments: z
    .array(z.object({ filename: z.string(), contentBase64: z.string(), contentType: z.string() }))
    .optional(),
};

/** A `mail` job's payload: one variant per template of `templates.ts`. */
const mailPayload = z.discriminatedUnion('template', [
  z.object({
    ...common,
    template: z.literal('signInCode'),
    params: z.object({ code: z.string(), minutes: z.number() }),
  }),
  z.object({
    ...common,
    template: z.literal('stepUpCode'),
    params: z.object({ code: z.string(), minutes: z.number(), action: auth.stepUpAction }),
  }),
  z.object({
    ...common,
    template: z.literal('giftReceived'),
    params: z.object({ ...ticketParams, giver: z.string() }),
  }),
  z.object({
    ...common,
    template: z.literal('giftSent'),
    /** `at`: the gift's time, the cancelling `.ics`'s stamp and sequence (issue 40 point 11; absent in older jobs). */
    params: z.object({ ticket, link: z.string(), receiver: z.string(), at: time.optional() }),
  }),
  z.object({
    ...common,
    template: z.literal('resaleCode'),
    params: z.object({ ...ticketParams, quantity: z.number().int() }),
  }),
  z.object({
    ...common,
    template: z.literal('listingSold'),
    params: z.object({
      eventName: z.string(),
      ticketName: z.string(),
      quantity: z.number().int(),
      amountCents: z.number().int(),
      currencyCode: z.string(),
      link: z.string(),
      exchange: z.boolean().optional(),
    }),
  }),
  z.object({ ...common, template: z.literal('ticketIssued'), params: z.object(ticketParams) }),
  z.object({
    ...common,
    template: z.literal('exchangeOffered'),
    params: z.object({
      ticket,
      quantity: z.number().int(),
      amountCents: z.number().int(),
      currencyCode: z.string(),
      expiresAt: time,
      link: z.string(),
    }),
  }),
  z.object({
    ...common,
    template: z.literal('exchangePurchased'),
    params: z.object({
      ticket,
      quantity: z.number().int(),
      amountCents: z.number().int(),
      currencyCode: z.string(),
      link: z.string(),
      at: time,
    }),
  }),
  z.object({
    ...common,
    template: z.literal('exchangeEnded'),
    params: z.object({ eventName: z.string(), reason: z.enum(['expired', 'closed']), link: z.string() }),
  }),
  z.object({
    ...common,
    template: z.literal('reminder'),
    /**
     * `unsubscribeUrl`: the holder's one-click unsubscribe link (issue 41 point 9), the `List-Unsubscribe` header and
     * the small print's link; absent in jobs enqueued before it (sent without).
     */
    params: z.object({ ...ticketParams, unsubscribeUrl: z.url({ protocol: /^https?$/ }).optional() }),
  }),
  z.object({
    ...common,
    template: z.literal('eventChanged'),
    /**
     * `changes`: what changed, old and new (issue 46); absent in jobs enqueued before it (the new facts only).
     * `newDate`: the change is a new date (decision 047), with `refundUntil` when the holder may ask for a refund
     * until then (policy `on_reschedule`), else null; absent: an ordinary change.
     */
    params: z.object({
      ...ticketParams,
      sequence: z.number().int(),
      changes: eventChanges.optional(),
      newDate: z.object({ refundUntil: time.nullable() }).optional(),
    }),
  }),
  z.object({
    ...common,
    template: z.literal('eventCancelled'),
    params: z.object({ ...ticketParams, sequence: z.number().int(), reason: z.string().nullable() }),
  }),
  z.object({
    ...common,
    template: z.literal('ticketRevoked'),
    params: z.object({ ticket, link: z.string(), reason: z.enum(TICKET_REVOKED_REASONS).optional() }),
  }),
  z.object({
    ...common,
    template: z.literal('refundApproved'),
    /** `reference`: the organiser's reference of the refund made in their shop, or null (issue 46). */
    params: z.object({ ticket, link: z.string(), reference: z.string().nullable() }),
  }),
  z.object({
    ...common,
    template: z.literal('refundDeclined'),
    /** `reason`: the organiser's reason (issue 46). */
    params: z.object({ ticket, link: z.string(), reason: z.string() }),
  }),
  z.object({
    ...common,
    template: z.literal('memberInvited'),
    params: z.object({ role: z.enum(ORG_ROLES), link: z.string() }),
  }),
  z.object({
    ...common,
    template: z.literal('swapDone'),
    params: z.object({
      ...ticketParams,
      quantity: z.number().int(),
      /** The whole swap's amount paid, minor units (issue 40); optional: jobs enqueued before it had none. */
      paid: z.object({ cents: z.number().int(), currencyCode: z.string() }).optional(),
    }),
  }),
]);

/** An e-mail to enqueue: template, params, recipient (`to`), language, organisation (extra fields are dropped). */
export type MailJobInput = z.input<typeof mailPayload>;
type MailPayload = z.output<typeof mailPayload>;

/**
 * The mail classes, as job priorities (issue 44): among due mails a higher one is claimed first.
 * - `code` (10): a sign-in code, which a person waits for on the screen;
 * - `awaited` (5): a mail a person is waiting for after doing something (a gift, a resale code, a sale, a swap, an
 *   invitation);
 * - `bulk` (0): mails an organiser's action sends to many (imports, change notices, revocations, reminders).
 */
export const MAIL_CLASS_PRIORITY = { code: 10, awaited: 5, bulk: 0 } as const;

/** The class of each template; a new template must choose one. */
const MAIL_CLASS: Record<MailPayload['template'], keyof typeof MAIL_CLASS_PRIORITY> = {
  signInCode: 'code',
  stepUpCode: 'code',
  giftReceived: 'awaited',
  giftSent: 'awaited',
  resaleCode: 'awaited',
  listingSold: 'awaited',
  swapDone: 'awaited',
  memberInvited: 'awaited',
  exchangeOffered: 'awaited',
  exchangeEnded: 'bulk',
  exchangePurchased: 'awaited',
  ticketIssued: 'bulk',
  reminder: 'bulk',
  eventChanged: 'bulk',
  eventCancelled: 'bulk',
  ticketRevoked: 'bulk',
  refundApproved: 'awaited',
  refundDeclined: 'awaited',
};

/**
 * Enqueues e-mails as `mail` jobs, due at `at` (the caller's clock, UTC), in `db` — the transaction of the work that
 * causes them where there is one. Each is checked against its template's params now (a wrong payload fails here,
 * not in the worker) and stored without the fields the template does not read.
 */
export async function enqueueMails(db: DbOrTx, at: Date, mails: readonly MailJobInput[]): Promise<void> {
  // Sliced: 10,000 parses never hold the event loop (issue 19 break 3).
  const jobs: JobInput[] = await mapSliced(mails, (m) => ({
    kind: MAIL_JOB,
    payload: mailPayload.parse(m),
    runAt: at,
    // Sign-in codes first, then the mails a person waits for, then bulk (a gift notice never waits for an import).
    priority: MAIL_CLASS_PRIORITY[MAIL_CLASS[m.template]],
    // A relay stalling on one domain holds only that domain's share of the mail lane (issue 39 item 2).
    destination: mailDestination(m.to),
  }));
  await enqueueJobs(db, jobs);
}

/** The one destination of every mail host without a registrable domain. */
export const UNREGISTRABLE_DESTINATION = '~unregistrable';

/**
 * The destination of a mail for the job queue's fairness: the registrable domain of the recipient's address (its
 * public suffix and one label more, `tldts`: `v@s0.tarpit.example` and `w@s1.tarpit.example` are one destination,
 * so subdomains, free to make, are not free slots; issue 39 item 2, re-audit), lower case;
 * `UNREGISTRABLE_DESTINATION` for every host that has none (`localhost`, an invalid label).
 */
export function mailDestination(to: string): string {
  const host = to.slice(to.lastIndexOf('@') + 1).toLowerCase();
  // Every host tldts finds no registrable domain in (a label of 64+ characters, one ending in a hyphen, an
  // unknown long top-level label: the third and fourth re-audits' ways around) is one shared destination.
  return getDomain(host) ?? UNREGISTRABLE_DESTINATION;
}

/** How one mail went, for the recipient's delivery status (`users.email_status`). */
export interface MailDeliveryOutcome {
  status: 'delivered' | 'failing' | 'bounced';
  /** The relay's answer or the error's message (failures only), at most 300 characters. */
  detail: string | null;
}

/**
 * The relay's answer when `err` is a permanent SMTP refusal (a 5xx reply code, RFC 5321 §4.2.1: nodemailer's
 * `responseCode`), else null. A 4xx, a timeout or a refused connection is temporary.
 */
export function permanentSmtpFailure(err: unknown): string | null {
  const e = err as { responseCode?: unknown; response?: unknown } | null;
  if (e === null || typeof e !== 'object' || typeof e.responseCode !== 'number') return null;
  if (e.responseCode < 500 || e.responseCode > 599) return null;
  return redactAddresses(typeof e.response === 'string' ? e.response : String(e.responseCode)).slice(0, 300);
}

/** A failure's message for the delivery status, at most 300 characters, without e-mail addresses. */
function failureText(err: unknown): string {
  return redactAddresses(err instanceof Error ? err.message : String(err)).slice(0, 300);
}

/** `text` with every e-mail address replaced by `<recipient>`. */
const redactAddresses = (text: string) => text.replace(/<?[^\s<>@]+@[^\s<>@]+>?/g, '<recipient>');

/** The fields of a mail provider's error that say what went wrong and name no recipient (nodemailer's SMTP fields). */
const SAFE_FIELDS = ['code', 'command', 'responseCode', 'response'] as const;

/**
 * The failure a mail job rejects with (its log line and its job's `last_error`; issue 41 point 8): a new Error with
 * `err`'s name, message and stack and only its `SAFE_FIELDS`, every e-mail address in them replaced by `<recipient>`.
 * Nothing else is copied: nodemailer's error also carries the envelope's addresses (`rejected`, `accepted`,
 * `rejectedErrors[].recipient`, `envelope`), which the logger's error serialiser would write out with every other
 * own field. The log line names the recipient by user id instead (`withJobLogFields`).
 */
function mailFailure(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(redactAddresses(String(err)));
  const clean = new Error(redactAddresses(err.message));
  clean.name = err.name;
  clean.stack = err.stack ? redactAddresses(err.stack) : clean.stack;
  // The casts: nodemailer's fields are own properties its Error type does not declare; each is checked as read.
  const from = err as Error & Partial<Record<(typeof SAFE_FIELDS)[number], unknown>>;
  const to = clean as typeof from;
  for (const field of SAFE_FIELDS) {
    const value = from[field];
    if (typeof value === 'string') to[field] = redactAddresses(value);
    else if (typeof value === 'number') to[field] = value;
  }
  return clean;
}

/** Renders a payload's mail in its language under `brand`. */
async function render(
  p: MailPayload,
  brand: ReturnType<typeof mailBrand>,
): Promise<RenderedMail & { attachments?: MailAttachment[] }> {
  switch (p.template) {
    case 'signInCode':
      return signInCodeMail(p.locale, p.params.code, p.params.minutes, brand);
    case 'stepUpCode':
      return stepUpCodeMail(p.locale, p.params, brand);
    case 'giftReceived':
      return giftReceivedMail(p.locale, { ...p.params, brand });
    case 'giftSent':
      return giftSentMail(p.locale, { ...p.params, brand });
    case 'resaleCode':
      return resaleCodeMail(p.locale, { ...p.params, brand });
    case 'listingSold':
      return listingSoldMail(p.locale, { ...p.params, brand });
    case 'ticketIssued':
      return ticketIssuedMail(p.locale, { ...p.params, brand });
    case 'reminder':
      return reminderMail(p.locale, { ...p.params, brand });
    case 'eventChanged':
      return eventChangedMail(p.locale, { ...p.params, brand });
    case 'eventCancelled':
      return eventCancelledMail(p.locale, { ...p.params, brand });
    case 'swapDone':
      return swapDoneMail(p.locale, { ...p.params, brand });
    case 'ticketRevoked':
      return ticketRevokedMail(p.locale, { ...p.params, brand });
    case 'refundApproved':
      return refundApprovedMail(p.locale, { ...p.params, brand });
    case 'refundDeclined':
      return refundDeclinedMail(p.locale, { ...p.params, brand });
    case 'memberInvited':
      return memberInvitedMail(p.locale, { ...p.params, brand });
    case 'exchangeOffered':
      return exchangeOfferedMail(p.locale, { ...p.params, brand });
    case 'exchangePurchased':
      return exchangePurchasedMail(p.locale, { ...p.params, brand });
    case 'exchangeEnded':
      return exchangeEndedMail(p.locale, { ...p.params, brand });
  }
}

/**
 * Header fields of every mail: `Auto-Submitted: auto-generated` (RFC 3834), so vacation responders and other
 * robots do not answer a mail no person wrote (issue 41, point 9).
 */
const MAIL_HEADERS: Readonly<Record<string, string>> = { 'Auto-Submitted': 'auto-generated' };

/**
 * The header fields of a payload's mail: `MAIL_HEADERS`, and for a reminder with its holder's unsubscribe link
 * `List-Unsubscribe: <url>` (RFC 2369) with `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058: the mail
 * client POSTs to the URL, as Gmail and Yahoo ask of bulk senders; issue 41 point 9). Transactional mails (sign-in
 * codes, tickets, gifts, receipts) have none: there is nothing to unsubscribe from.
 */
export function mailHeaders(p: MailJobInput): Record<string, string> {
  if (p.template !== 'reminder' || !p.params.unsubscribeUrl) return { ...MAIL_HEADERS };
  return {
    ...MAIL_HEADERS,
    'List-Unsubscribe': `<${p.params.unsubscribeUrl}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}

/**
 * The templates mailed to holders in bulk, without the holder asking (issue 41 point 1 of the leftovers): the
 * event reminders and "mail the holders of …" (`ticket-holders.repository.ts`: an event's changed time or place, a
 * revoked ticket). They are not sent to an address whose last mail bounced (`users.email_status = 'bounced'`): a
 * relay that refused an address for good is not asked again by every bulk mail (senders that keep mailing dead
 * addresses lose their reputation, and the holder's other mail with it). Mail a person causes themselves (a sign-in
 * code, a gift, a resale receipt) and the organiser's ticket mail (issued, re-sent: the console's way to try an
 * address again) still try; one that is delivered clears the bounce, and bulk mail resumes.
 */
const BULK_TEMPLATES: ReadonlySet<MailJobInput['template']> = new Set([
  'reminder',
  'eventChanged',
  'eventCancelled',
  'ticketRevoked',
]);

/**
 * The `mail` job handler: parses the payload; a `BULK_TEMPLATES` mail to an address whose delivery status is
 * `bounced` (`statusOf`) is skipped (the job is done, nothing sent, an info line with the template and the
 * recipient's user id). Otherwise it renders the mail under the organisation's brand (the product's when
 * `org` is null) and sends it with `MAIL_HEADERS`. A send that fails rejects, so the job is retried with backoff
 * (decision 030); its error carries the template and the recipient's user id for the log line (`job-log.ts`).
 */
export function createMailJobHandler(deps: {
  mail: MailProvider;
  config: { productName: string; publicUrl: string };
  /** The user id of an account's e-mail address (null: none), named in a failure's log line instead of the address. */
  recipientOf?: (email: string) => Promise<number | null>;
  /**
   * The delivery status of the account with this e-mail address (`users.email_status`; null: no account or no mail
   * yet). Absent: every mail is sent.
   */
  statusOf?: (email: string) => Promise<MailDeliveryOutcome['status'] | null>;
  /** Writes an info line (a bulk mail skipped for a bounced address); ids and template names only. */
  log?: (msg: string, fields: Record<string, string | number | null>) => void;
  /**
   * Records how a mail to `email` went (issue 41 point 6): the organiser's console shows it beside the holder. Its
   * own failure never fails the mail.
   */
  recordDelivery?: (email: string, outcome: MailDeliveryOutcome) => Promise<void>;
  /**
   * The PNG of organisation `slug`'s logo, as fetched from its logo URL of now (mail-logo.ts), or null: the mail
   * then shows the name alone. Absent: no logo in any mail.
   */
  logoOf?: (slug: string) => Promise<Buffer | null>;
}): JobHandler {
  const record = (to: string, outcome: MailDeliveryOutcome) =>
    deps.recordDelivery?.(to, outcome).catch(() => undefined) ?? Promise.resolve();
  return async (payload) => {
    const p = mailPayload.parse(payload);
    if (BULK_TEMPLATES.has(p.template) && deps.statusOf && (await deps.statusOf(p.to)) === 'bounced') {
      const recipientUserId = deps.recipientOf ? await deps.recipientOf(p.to).catch(() => null) : null;
      deps.log?.('mail skipped: the address bounced', { template: p.template, recipientUserId });
      return;
    }
    try {
      await renderAndSend(p);
    } catch (err) {
      // The failure's log line says which mail and whose (issue 41, point 8): the template and the recipient's
      // user id, never the address.
      const recipientUserId = deps.recipientOf ? await deps.recipientOf(p.to).catch(() => null) : null;
      const bounce = permanentSmtpFailure(err);
      await record(
        p.to,
        bounce ? { status: 'bounced', detail: bounce } : { status: 'failing', detail: failureText(err) },
      );
      // Relays name the recipient in their answer: the log line and the job's `last_error` get it without.
      const failure = withJobLogFields(mailFailure(err), { template: p.template, recipientUserId });
      // A relay's permanent refusal (5xx: unknown user, rejected domain) is kept as failed at once, not retried.
      throw bounce ? permanentJobFailure(failure) : failure;
    }
    await record(p.to, { status: 'delivered', detail: null });
  };

  async function renderAndSend(p: MailPayload): Promise<void> {
    const logo = p.org && deps.logoOf ? await deps.logoOf(p.org.slug) : null;
    const m = await render(p, mailBrand(p.org, deps.config, logo !== null));
    const extra = (p.attachments ?? []).map((a) => ({
      filename: a.filename,
      content: Buffer.from(a.contentBase64, 'base64'),
      contentType: a.contentType,
    }));
    // The logo is a part of the mail (issue 41 point 9): shown by the HTML's `cid:`, never loaded from elsewhere.
    const inline = logo
      ? [
          {
            filename: 'logo.png',
            content: logo,
            contentType: 'image/png',
            cid: LOGO_CID,
            contentDisposition: 'inline' as const,
          },
        ]
      : [];
    const attachments = [...extra, ...(m.attachments ?? []), ...inline];
    await deps.mail.send({
      to: p.to,
      ...m,
      ...(attachments.length ? { attachments } : {}),
      headers: mailHeaders(p),
    });
  }
}
