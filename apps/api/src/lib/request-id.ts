/**
 * Request ids (issue 25, decision 031): every request gets an id, every line written through the request's logger
 * (`req.log`, Fastify binds the id as `reqId`) carries it, and the answer returns it in `x-request-id`. Code that
 * logs while serving a request is given `req.log` (the Stripe event service takes it as a parameter); the app
 * logger writes only lines that belong to no request (start, workers, housekeeping).
 *
 * No AsyncLocalStorage: on Node 20 it turns on promise hooks for the whole process, and carrying the id that way
 * (@fastify/request-context) cost every answer a share (`/healthz` 1.32× and `/v1/auth/me` 1.14× faster
 * without it, same build otherwise, alternating rounds on one PostgreSQL; decision 031).
 *
 * The id is a proxy's `x-request-id` only when TRUST_PROXY is set and the value is sane (1-128 characters of
 * `A-Z a-z 0-9 . _ : -`); otherwise a fresh UUID, so a client can neither inject text into the logs nor pass itself
 * off as another request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { App } from './http.js';

/** The request header a proxy names its request id in, and the answer header it is returned in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What a request id taken from a proxy may look like: bounded length, a charset safe in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Fastify's `genReqId`: the proxy's `x-request-id` when proxies are trusted and it is sane, else a random UUID.
 * @param trustProxy config `trustProxy` (TRUST_PROXY); false ignores the header
 */
export function requestIdGenerator(trustProxy: unknown): (req: IncomingMessage) => string {
  return (req) => {
    const given = req.headers[REQUEST_ID_HEADER];
    if (trustProxy && typeof given === 'string' && SANE_REQUEST_ID.test(given)) return given;
    return randomUUID();
  };
}

/** Registers the answer header `x-request-id`; call before any route. */
export function registerRequestId(app: App): void {
  app.addHook('onRequest', (req, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
}
