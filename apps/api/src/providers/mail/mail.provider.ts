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
 * Idle SMTP connections kept for reuse when none is given (the config passes JOB_MAIL_CONCURRENCY: one a slot).
 */
const DEFAULT_KEEP_CONNECTIONS = 4;

/**
 * Builds the mail provider for the config. `log` receives the console form of dev messages.
 *
 * Over SMTP (issue 44, decision 030 "Mail at the speed of a crowd") each send takes a connection of its own for the
 * whole message and gives it back when the relay accepted it: an idle one if there is one, else a new one. A
 * connection is never shared by two sends at once, so a send the relay stalls on (a parked send, decision 030) holds
 * its own connection only and no message ever queues behind it; and at most `keepConnections` idle ones are kept
 * (the mail lane's slots), the others closed. Each is nodemailer's pool of one connection (`pool: true`,
 * `maxConnections: 1`): it reconnects after nodemailer's 100 messages or when the relay closes it, and an idle one
 * closes after `timeouts.socketSeconds` of silence. Reuse saves each message the connection, the greeting and EHLO
 * (with a distant relay, TLS too): 100 ms a message with the bench's sink, a handshake of several round trips with a
 * provider.
 *
 * `send` rejects with `smtp: send timed out after N s` past `timeouts.sendSeconds`, or with nodemailer's error
 * (`ETIMEDOUT`, `ESOCKET`, `EENVELOPE`, an SMTP refusal...) once the connect or socket bound passes. A send that
 * failed closes its connection (its state is unknown; a stalled one is not left open until its socket timeout).
 */
export function createMailProvider(opts: {
  smtpUrl: string | null;
  from: string;
  log: (line: string) => void;
  timeouts?: SmtpTimeouts;
  /** Idle SMTP connections kept for the next sends (default 4; 0 = a connection per message). */
  keepConnections?: number;
}): MailProvider {
  if (opts.smtpUrl) return smtpProvider(opts.smtpUrl, opts.from, opts.timeouts, opts.keepConnections);
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

/** The SMTP provider of `createMailProvider`: one connection per send at a time, idle ones reused. */
function smtpProvider(
  url: string,
  from: string,
  t: SmtpTimeouts = DEFAULT_SMTP_TIMEOUTS,
  keep = DEFAULT_KEEP_CONNECTIONS,
): MailProvider {
  const connect = () =>
    nodemailer.createTransport({
      url,
      pool: true,
      maxConnections: 1,
      connectionTimeout: t.connectSeconds * 1000,
      greetingTimeout: t.connectSeconds * 1000,
      socketTimeout: t.socketSeconds * 1000,
      dnsTimeout: t.connectSeconds * 1000,
    });
  type Connection = ReturnType<typeof connect>;
  /** Connections no send uses, the most recently used last. */
  const idle: Connection[] = [];
  /** Connections a send uses now. */
  const busy = new Set<Connection>();
  let closed = false;
  return {
    send: async (m) => {
      const connection = idle.pop() ?? connect();
      busy.add(connection);
      // Past the bound the send fails and nodemailer closes its connection (the signal): a stalled connection is
      // not left open until its socket timeout. `signal` is nodemailer's (10.6), not yet in its types.
      const abort = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error(`smtp: send timed out after ${t.sendSeconds} s`));
          abort.abort();
        }, t.sendSeconds * 1000);
      });
      const message = { from, ...m, signal: abort.signal };
      let sent = false;
      try {
        await Promise.race([connection.sendMail(message), deadline]);
        sent = true;
      } finally {
        clearTimeout(timer);
        busy.delete(connection);
        if (sent && !closed && idle.length < keep) idle.push(connection);
        else connection.close();
      }
    },
    outbox: () => [],
    close: () => {
      closed = true;
      for (const connection of [...idle.splice(0), ...busy]) connection.close();
    },
  };
}
