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
  /** Extra header fields (`Auto-Submitted`, `List-Unsubscribe`), passed to nodemailer as they are. */
  headers?: Record<string, string>;
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
