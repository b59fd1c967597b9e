/**
 * Signing a person in from a script against a running server whose mail goes to the dev outbox (`/dev/mail.json`,
 * served when the server runs without SMTP): the benchmarks, the backup drill and the screenshot script.
 */

const json = { 'content-type': 'application/json' };

/**
 * The sign-in codes mailed to `emails`, read from the dev outbox. The code mail is a job sent a moment after the
 * request answers (decision 030): polls every 50 ms, `timeoutMs` at most (default 10 s); an address whose code
 * did not come is missing from the map.
 */
export async function codesFrom(
  base: string,
  emails: readonly string[],
  timeoutMs = 10_000,
): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  for (const deadline = Date.now() + timeoutMs; codes.size < emails.length && Date.now() < deadline;) {
    const outbox = (await (await fetch(`${base}/dev/mail.json`)).json()) as { to: string; text: string }[];
    for (const email of emails) {
      const code = outbox.find((m) => m.to === email)?.text.match(/\b(\d{6})\b/)?.[1];
      if (code && !codes.has(email)) codes.set(email, code);
    }
    if (codes.size < emails.length) await new Promise((r) => setTimeout(r, 50));
  }
  return codes;
}

/** Attempts of a request the server sheds (503 `api.busy`, decision 039) before giving up. */
const SHED_ATTEMPTS = 5;

/**
 * POSTs `body` as JSON; a 503 `api.busy` (load shedding: the request did nothing, decision 039) is sent again after
 * its `Retry-After` (seconds, at most 5), `SHED_ATTEMPTS` times at most, each shed said on stderr.
 */
async function post(url: string, body: unknown): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const r = await fetch(url, { method: 'POST', headers: json, body: JSON.stringify(body) });
    if (r.status !== 503 || attempt >= SHED_ATTEMPTS) return r;
    const text = await r.text();
    if (!text.includes('api.busy')) return new Response(text, { status: r.status, headers: r.headers });
    const wait = Math.min(5, Number(r.headers.get('retry-after')) || 1);
    console.error(`${new URL(url).pathname}: shed (503 api.busy), again in ${wait} s`);
    await new Promise((done) => setTimeout(done, wait * 1000));
  }
}

/**
 * Signs `email` in on the server at `base` with the e-mailed code; a shed request is sent again (`post`).
 * @returns the token pair of `POST /v1/auth/verifyLoginRequest`
 * @throws Error when a step answers an error or no code is mailed within `timeoutMs`
 */
export async function devSignIn(
  base: string,
  email: string,
  timeoutMs?: number,
): Promise<{ accessToken: string; refreshToken: string }> {
  const r = await post(`${base}/v1/auth/signInOrRegisterAndSignIn`, { email });
  if (!r.ok) throw new Error(`sign-in request of ${email}: ${r.status} ${await r.text()}`);
  const { sessionId } = (await r.json()) as { sessionId: string };
  const otp = (await codesFrom(base, [email], timeoutMs)).get(email);
  if (!otp) throw new Error(`no sign-in code mailed to ${email}`);
  const v = await post(`${base}/v1/auth/verifyLoginRequest`, { email, session: sessionId, otp });
  if (!v.ok) throw new Error(`sign-in of ${email}: ${v.status} ${await v.text()}`);
  return (await v.json()) as { accessToken: string; refreshToken: string };
}

/** Signs `email` in (`devSignIn`); returns the bearer header value (`Bearer <accessToken>`). */
export async function signIn(base: string, email: string): Promise<string> {
  return `Bearer ${(await devSignIn(base, email)).accessToken}`;
}
