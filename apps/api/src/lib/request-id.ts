/**
 * Request ids (issue 25, decision 031): every request gets an id, every log line written while it is served carries
 * it as `reqId` (Fastify's `req.log` lines and the services' lines through the app logger alike), and the answer
 * returns it in `x-request-id`. The id is a proxy's `x-request-id` only when TRUST_PROXY is set and the value is
 * sane (1-128 characters of `A-Z a-z 0-9 . _ : -`); otherwise a fresh UUID, so a client can neither inject text into
 * the logs nor pass itself off as another request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fastifyRequestContext, { requestContext } from '@fastify/request-context';
import type { App } from './http.js';

/** The request header a proxy names its request id in, and the answer header it is returned in. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What a request id taken from a proxy may look like: bounded length, a charset safe in logs and headers. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module '@fastify/request-context' {
  interface RequestContextData {
    /** The id of the request being served (Fastify's `req.id`). */
    reqId: string;
  }
}

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

/**
 * pino's `mixin`: adds the current request's `reqId` to a line written outside `req.log` (the services log through
 * the app logger). A line of `req.log` already has it as a binding and gets nothing more.
 */
export function requestIdMixin(
  _merge: object,
  _level: number,
  logger: { bindings(): Record<string, unknown> },
): Record<string, string> {
  const reqId = requestContext.get('reqId');
  if (reqId === undefined || 'reqId' in logger.bindings()) return {};
  return { reqId };
}

/**
 * Registers the request context (the id follows the request through body parsing and every await) and the answer
 * header; call before any route.
 */
export async function registerRequestId(app: App): Promise<void> {
  await app.register(fastifyRequestContext, { defaultStoreValues: (req) => ({ reqId: req.id }) });
  app.addHook('onRequest', (req, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
}
