/** Reads sign-in codes from the SMTP sink's .eml files (see global-setup.ts). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Waits for a sign-in code e-mail to `email` newer than `after` mails and returns the 6-digit code. */
export async function waitForCode(email: string, timeoutMs = 15_000): Promise<string> {
  const dir = process.env.E2E_MAIL_DIR!;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = readdirSync(dir).sort().reverse();
    for (const f of files) {
      const raw = readFileSync(join(dir, f), 'utf8');
      const to = /^To: (.+)$/im.exec(raw)?.[1] ?? '';
      if (!to.toLowerCase().includes(email.toLowerCase())) continue;
      const code = /^Subject: .*?(\d{6})/im.exec(raw)?.[1];
      if (code) return code;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${email}`);
}

/** Number of mails received so far. */
export const mailCount = () => readdirSync(process.env.E2E_MAIL_DIR!).length;
