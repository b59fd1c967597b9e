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
  /**
   * Files of the message. `cid` with `contentDisposition: 'inline'`: a part the HTML shows (`<img src="cid:…">`,
   * the organisation's logo), not a file offered to save.
   */
  attachments?: {
    filename: string;
    content: Buffer;
    contentType: string;
    cid?: string;
    contentDisposition?: 'inline' | 'attachment';
  }[];
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

/**
 * Bounds on talking to the SMTP server (issue 39), seconds: `connect` opens the connection and waits for the greeting,
 * `socket` is the longest silence of an open connection (a relay that never answers RCPT TO), `send` bounds one
 * message from start to end. Nodemailer's own are 2 min, 30 s, 10 min and none.
 */
export interface SmtpTimeouts {
  connectSeconds: number;
  socketSeconds: number;
  sendSeconds: number;
}

/** The timeouts when none are given (the config's defaults). */
const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectSeconds: 10, socketSeconds: 30, sendSeconds: 60 };

/**
 * Builds the mail provider for the config. `log` receives the console form of dev messages.
 * Over SMTP each message opens its own connection (several can be sent at once, decision 030's mail lane), and
 * `send` rejects with `smtp: send timed out after N s` past `timeouts.sendSeconds`, or with nodemailer's error
 * (`ETIMEDOUT`, `ESOCKET`, `EENVELOPE`...) once the connect or socket bound passes.
 */
export function createMailProvider(opts: {
  smtpUrl: string | null;
  from: string;
  log: (line: string) => void;
  timeouts?: SmtpTimeouts;
}): MailProvider {
  if (opts.smtpUrl) {
    const t = opts.timeouts ?? DEFAULT_SMTP_TIMEOUTS;
    const transport = nodemailer.createTransport({
      url: opts.smtpUrl,
      connectionTimeout: t.connectSeconds * 1000,
      greetingTimeout: t.connectSeconds * 1000,
      socketTimeout: t.socketSeconds * 1000,
      dnsTimeout: t.connectSeconds * 1000,
    });
    return {
      send: async (m) => {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`smtp: send timed out after ${t.sendSeconds} s`)),
            t.sendSeconds * 1000,
          );
        });
        try {
          await Promise.race([transport.sendMail({ from: opts.from, ...m }), deadline]);
        } finally {
          clearTimeout(timer);
        }
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
