/**
 * A local fake of the few Stripe API endpoints the payout provider calls (accounts, account sessions,
 * checkout sessions, refunds), for the real `stripe` SDK pointed at it through `STRIPE_API_URL`. Like Stripe,
 * it answers a repeated `Idempotency-Key` with the first response. An outage on demand: `outage.status` (e.g.
 * 500) answers every request with that status and Stripe's error body (`outage.html`: a proxy's HTML page instead;
 * `outage.body`: that JSON body, not Stripe's, such as a gateway's `{"message": …}`, sent gzipped when `outage.gzip`);
 * `outage.hold` keeps every request
 * unanswered (seen, not answered) until `release()`.
 */
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

export interface StripeRequest {
  method: string;
  path: string;
  body: URLSearchParams;
  auth: string;
  idempotencyKey: string | undefined;
}

/** Starts the fake on 127.0.0.1; `seen` lists every request in order. Call `close()` after. */
export async function startStripeFake() {
  const seen: StripeRequest[] = [];
  const replies = new Map<string, string>();
  const outage: { status: number | null; html: boolean; body: string | null; gzip: boolean; hold: boolean } = {
    status: null,
    html: false,
    body: null,
    gzip: false,
    hold: false,
  };
  const held: (() => void)[] = [];
  let n = 0;
  const answer = (path: string, body: URLSearchParams): { status: number; json: object } => {
    n++;
    if (path === '/v1/accounts')
      return {
        status: 200,
        json: { id: `acct_${n}`, object: 'account', country: body.get('country'), type: body.get('type') },
      };
    if (path === '/v1/account_sessions')
      return {
        status: 200,
        json: {
          object: 'account_session',
          account: body.get('account'),
          client_secret: `accs_secret_${body.get('account')}`,
        },
      };
    if (path === '/v1/checkout/sessions')
      return {
        status: 200,
        json: { id: `cs_test_${n}`, object: 'checkout.session', url: `https://checkout.example/cs_test_${n}` },
      };
    if (path === '/v1/refunds')
      return {
        status: 200,
        json: { id: `re_test_${n}`, object: 'refund', payment_intent: body.get('payment_intent'), status: 'succeeded' },
      };
    return { status: 404, json: { error: { type: 'invalid_request_error', message: 'not faked' } } };
  };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', () => {
      const body = new URLSearchParams(raw);
      const key = req.headers['idempotency-key'] as string | undefined;
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        body,
        auth: String(req.headers.authorization),
        idempotencyKey: key,
      });
      res.setHeader('content-type', 'application/json');
      if (outage.status !== null) {
        res.statusCode = outage.status;
        if (outage.html) {
          res.setHeader('content-type', 'text/html');
          return res.end(`<html><body><h1>${outage.status} Bad Gateway</h1></body></html>`);
        }
        if (outage.body !== null && outage.gzip) {
          res.setHeader('content-encoding', 'gzip');
          return res.end(gzipSync(outage.body));
        }
        if (outage.body !== null) return res.end(outage.body);
        return res.end(JSON.stringify({ error: { type: 'api_error', message: 'fake outage' } }));
      }
      if (outage.hold) {
        held.push(() => res.end(JSON.stringify({ error: { type: 'api_error', message: 'released' } })));
        res.statusCode = 500;
        return;
      }
      const replayed = key ? replies.get(`${req.url}:${key}`) : undefined;
      if (replayed) return res.end(replayed);
      const { status, json } = answer(req.url ?? '', body);
      res.statusCode = status;
      const text = JSON.stringify(json);
      if (key && status === 200) replies.set(`${req.url}:${key}`, text);
      res.end(text);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    apiUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    seen,
    outage,
    /** Answers every held request (with a 500) and stops holding. */
    release: () => {
      outage.hold = false;
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
