/**
 * How the benchmarks sign a person in: through the API, with the code read from the dev outbox
 * (`/dev/mail.json`, served when the server runs without SMTP). One place for bench/run.ts and
 * bench/db-ratio.ts.
 */

const json = { 'content-type': 'application/json' };

/**
 * The sign-in codes mailed to `emails`, read from the dev outbox. The code mail is a job sent a moment after the
 * request answers (decision 030): polls every 50 ms, 10 s at most.
 */
export async function codesFrom(base: string, emails: readonly string[]): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  for (const deadline = Date.now() + 10_000; codes.size < emails.length && Date.now() < deadline;) {
    const outbox = (await (await fetch(`${base}/dev/mail.json`)).json()) as { to: string; text: string }[];
    for (const email of emails) {
      const code = outbox.find((m) => m.to === email)?.text.match(/\b(\d{6})\b/)?.[1];
      if (code && !codes.has(email)) codes.set(email, code);
    }
    if (codes.size < emails.length) await new Promise((r) => setTimeout(r, 50));
  }
  return codes;
}

/** Signs `email` in on the server at `base`; returns the bearer header value (`Bearer <accessToken>`). */
export async function signIn(base: string, email: string): Promise<string> {
  const r = await fetch(`${base}/v1/auth/signInOrRegisterAndSignIn`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email }),
  });
  const { sessionId } = (await r.json()) as { sessionId: string };
  const otp = (await codesFrom(base, [email])).get(email);
  const v = await fetch(`${base}/v1/auth/verifyLoginRequest`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, session: sessionId, otp }),
  });
  if (!v.ok) throw new Error(`sign-in of ${email}: ${v.status} ${await v.text()}`);
  return `Bearer ${((await v.json()) as { accessToken: string }).accessToken}`;
}
