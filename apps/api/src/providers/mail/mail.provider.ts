/**
 * Mail delivery. SMTP through nodemailer when SMTP_URL is set; otherwise a dev outbox that
 * keeps messages in memory (listed at /dev/mail) and prints them to the console.
 */
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** A message kept by the dev outbox. */
export interface OutboxEntry extends MailMessage {
  id: number;
  at: string;
}

export interface MailProvider {
  send(message: MailMessage): Promise<void>;
  /** Messages sent through the dev outbox (empty for SMTP). Newest first. */
  outbox(): OutboxEntry[];
  close(): void;
}

/** Builds the mail provider for the config. `log` receives the console form of dev messages. */
export function createMailProvider(opts: {
  smtpUrl: string | null;
  from: string;
  log: (line: string) => void;
}): MailProvider {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      send: async (m) => {
        await transport.sendMail({ from: opts.from, ...m });
      },
      outbox: () => [],
      close: () => transport.close(),
    };
  }
  const entries: OutboxEntry[] = [];
  const transport = nodemailer.createTransport({ jsonTransport: true });
  let next = 1;
  return {
    async send(m) {
      await transport.sendMail({ from: opts.from, ...m });
      entries.unshift({ ...m, id: next++, at: new Date().toISOString() });
      if (entries.length > 200) entries.pop();
      opts.log(`\n--- mail to ${m.to}: ${m.subject}\n${m.text}\n---`);
    },
    outbox: () => entries,
    close: () => transport.close(),
  };
}

/** Where mail failures are logged (Fastify's `app.log` fits). */
export interface MailFailureLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Sends a mail that follows work already committed (a gift moved, an order paid), so a failure must not undo
 * that work nor reach the caller: tries up to `attempts` times (default 1), waiting `backoffMs` (default 500 ms)
 * before the second try and twice as long before each next one; logs every failed try but the last as a warning
 * and the final failure as an error, both with `context` (e.g. `{ orderId }`) and the error, never the recipient or
 * the subject (lib/log-privacy.ts). Never throws.
 * @returns true once sent, false when every try failed.
 */
export async function sendMailOrLog(
  mail: MailProvider,
  message: MailMessage,
  opts: { log: MailFailureLog; context: Record<string, unknown>; attempts?: number; backoffMs?: number },
): Promise<boolean> {
  const attempts = Math.max(1, opts.attempts ?? 1);
  let wait = opts.backoffMs ?? 500;
  for (let attempt = 1; ; attempt++) {
    try {
      await mail.send(message);
      return true;
    } catch (err) {
      // No subject: it can name a person ("Perpetua Quennell gifted you a ticket"); `context` names the mail by id.
      const entry = { ...opts.context, err, attempt, attempts };
      if (attempt >= attempts) {
        opts.log.error(entry, 'mail not sent');
        return false;
      }
      opts.log.warn(entry, 'mail failed, retrying');
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait *= 2;
    }
  }
}
