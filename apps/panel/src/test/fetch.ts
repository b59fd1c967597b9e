/**
 * A fake API for the panel's unit tests: replaces the API client's fetch (`clientHooks.fetch`) by a
 * handler that gets each request already read (path without `/v1`, method, headers in lower case,
 * JSON body), and answers with `jsonResponse`.
 */
import { vi } from 'vitest';
import { clientHooks } from '../lib/api-client';

export interface FakeRequest {
  /** The URL as requested, e.g. `/v1/resell`. */
  url: string;
  /** The URL without the `/v1` prefix, e.g. `/resell`. */
  path: string;
  method: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined without one. */
  body: unknown;
}

/** A JSON answer (`undefined` body: an empty one). */
export const jsonResponse = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

const urlOf = (input: RequestInfo | URL) =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

/** Reads a request the way the fake API hands it to its handler. */
export function readRequest(input: RequestInfo | URL, init?: RequestInit): FakeRequest {
  const url = urlOf(input);
  return {
    url,
    path: url.replace(/^\/v1/, ''),
    method: init?.method ?? 'GET',
    headers: Object.fromEntries(new Headers(init?.headers).entries()),
    body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
  };
}

/** Answers every API request with `handler`; returns the mock (its `calls` are fetch's arguments). */
export function fakeApi(handler: (request: FakeRequest) => Response | Promise<Response>) {
  const fetch = vi.fn(
    (input: RequestInfo | URL, init?: RequestInit) =>
      // A handler that throws is a failed fetch (a rejected promise), like a network error.
      new Promise<Response>((resolve) => resolve(handler(readRequest(input, init)))),
  );
  clientHooks.fetch = fetch;
  return fetch;
}

/**
 * The server pass's answers (`GET /auth/access/qrCodeData`: a 30 s ttl; `GET /auth/access/qr`: a PNG's
 * base64), or undefined for any other path, for a handler to answer itself.
 */
export function serverPassAnswer(path: string): Response | undefined {
  if (path === '/auth/access/qrCodeData') return jsonResponse({ ttl: 30 });
  if (path === '/auth/access/qr') return new Response('iVBORw0KGgo=', { status: 200 });
  return undefined;
}
