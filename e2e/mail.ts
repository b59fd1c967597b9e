/** Reads the mails the SMTP sink stored as .eml files (one sink per Playwright worker slot, see global-setup.ts). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = () => process.env.E2E_MAIL_DIR!;

/** Number of mails received so far; pass it as `after` to wait only for newer mails. */
export const mailCount = () => readdirSync(dir()).length;

/** Raw .eml texts received after the first `after` mails, oldest first. */
export function mailsAfter(after = 0): string[] {
  return readdirSync(dir())
    .sort()
    .slice(after)
    .map((f) => readFileSync(join(dir(), f), 'utf8'));
}

/**
 * How often the sink's directory is read while waiting, ms. A code reaches the sink some tens of milliseconds after it
 * is asked for (a median of 184 ms at load average 24); read every 200 ms, each wait ended at the next multiple of
 * 200 ms, on the one Playwright worker's path (decision 028 section 12). A read lists the directory and reads the
 * files after `after`: a few, since every caller passes the count from just before its request.
 */
const POLL_MS = 20;

/** Waits for a mail to `email` among those after `after` that `match` accepts; returns its raw text. */
export async function waitForMail(
  email: string,
  opts: { after?: number; match?: (raw: string) => boolean; timeoutMs?: number } = {},
): Promise<string> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    const found = mailsAfter(opts.after ?? 0)
      .reverse()
      .find((raw) => {
        const to = /^To: (.+)$/im.exec(raw)?.[1] ?? '';
        return to.toLowerCase().includes(email.toLowerCase()) && (opts.match?.(raw) ?? true);
      });
    if (found) return found;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new Error(`no matching mail to ${email}`);
}

/** Waits for a sign-in code mailed to `email` after `after` mails and returns the 6 digits. */
export async function waitForCode(email: string, after = 0, timeoutMs = 15_000): Promise<string> {
  const raw = await waitForMail(email, { after, timeoutMs, match: (r) => /^Subject: .*?\d{6}/im.test(r) });
  return /^Subject: .*?(\d{6})/im.exec(raw)![1];
}

/** The text of a raw e-mail's quoted-printable parts, decoded as UTF-8. */
export const decoded = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (m) => Buffer.from(m.replace(/=/g, ''), 'hex').toString('utf8'));
