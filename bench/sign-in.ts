/**
 * How the benchmarks sign a person in: through the API, with the code read from the dev outbox
 * (`/dev/mail.json`, served when the server runs without SMTP). One place for bench/run.ts and
 * bench/db-ratio.ts.
 */

const json = { 'content-type': 'application/json' };

/** Signs `email` in on the server at `base`; returns the bearer header value (`Bearer <accessToken>`). */
export async function signIn(base: string, email: string): Promise<string> {
  const r = await fetch(`${base}/v1/auth/signInOrRegisterAndSignIn`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email }),
  });
  const { sessionId } = (await r.json()) as { sessionId: string };
  const outbox = (await (await fetch(`${base}/dev/mail.json`)).json()) as { to: string; text: string }[];
  const otp = outbox.find((m) => m.to === email)?.text.match(/\b(\d{6})\b/)?.[1];
  const v = await fetch(`${base}/v1/auth/verifyLoginRequest`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, session: sessionId, otp }),
  });
  if (!v.ok) throw new Error(`sign-in of ${email}: ${v.status} ${await v.text()}`);
  return `Bearer ${((await v.json()) as { accessToken: string }).accessToken}`;
}
