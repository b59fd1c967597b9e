/**
 * One sign-in code per e-mail per resend window under any concurrency (issue 14, item 4): parallel code
 * requests for one e-mail mail exactly one code; the others get the resend-limit answer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from './helper.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

const request = (email: string) =>
  t.app.inject({ method: 'POST', url: '/v1/auth/signInOrRegisterAndSignIn', payload: { email } });

describe('sign-in code requests in parallel', () => {
  it('10 parallel requests for one e-mail: one code mailed and one open sign-in, nine resend_too_soon', async () => {
    const email = 'racer@example.com';
    const answers = await Promise.all(Array.from({ length: 10 }, () => request(email)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, ...Array<number>(9).fill(429)]);
    const sent = answers.find((a) => a.statusCode === 200)!.json<{ sessionId: string }>();
    for (const r of answers.filter((a) => a.statusCode === 429)) {
      // Each names the one open sign-in (issue 23), so every caller goes on with the code mailed.
      expect(r.json()).toMatchObject({ message: 'api.auth.resend_too_soon', sessionId: sent.sessionId });
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(t.mail.sent.filter((m) => m.to === email)).toHaveLength(1);
    const result: unknown = await t.database.db.execute(
      sql`select count(*)::int as n from login_requests where email = ${email}`,
    );
    expect((result as { rows: { n: number }[] }).rows[0].n).toBe(1);
  });

  it('parallel requests for different e-mails do not wait on each other’s limit', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => request(`p${i}@example.com`)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
  });
});
