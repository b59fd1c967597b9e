/**
 * A typed client of the /v1 API, generated from the API document (`npm run api:client` writes `schema.d.ts` from
 * `GET /v1/openapi.json`) with openapi-fetch: paths, parameters, bodies and answers are checked by the compiler.
 *
 * ```ts
 * const api = createApiClient('https://tickets.example.com', { headers: { authorization: `Bearer ${apiKey}` } });
 * const { data, error, response } = await api.PUT('/v1/org/events/{externalId}', { params: { path: { externalId } }, body });
 * ```
 */
import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { paths, components, operations, webhooks } from './schema.js';

/** A client for the API at `baseUrl` (no trailing `/v1`); `options` as openapi-fetch takes them (headers, fetch). */
export function createApiClient(baseUrl: string, options: Omit<ClientOptions, 'baseUrl'> = {}) {
  return createClient<paths>({ ...options, baseUrl });
}
