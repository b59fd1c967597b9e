/**
 * Every answer the integration suites get from `app.inject` is checked against the API document the same app
 * serves (`GET /v1/openapi.json`, issue 28): the status must be documented for the operation, a 204 or an answer
 * documented without content must be empty, the content type must be one the document names, and a JSON body must
 * validate against its schema (Ajv, JSON Schema 2020-12 as OpenAPI 3.1 uses it, `$ref`s resolved inside the
 * document). A mismatch throws from `inject`, so the test that made the call fails with what was wrong.
 *
 * Not checked: paths the document hides (pages, the Stripe webhook, the document itself) and unknown paths.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Response as InjectResponse } from 'light-my-request';

type Media = Record<string, { schema?: unknown }>;
type Operation = { responses: Record<string, { content?: Media }> };
type Document = { paths: Record<string, Record<string, Operation>> };

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** The operations of a document, matched by path template; literal paths before templated ones. */
function routesOf(document: Document) {
  return Object.entries(document.paths)
    .map(([path, item]) => {
      const params = (path.match(/\{[^}]+\}/g) ?? []).length;
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
      return { path, item, params, pattern: new RegExp(`^${source}$`) };
    })
    .sort((a, b) => a.params - b.params);
}

export interface ConformanceChecker {
  /** Throws when `res` is not an answer the document allows for `method` on `url`. */
  check(method: string, url: string, res: InjectResponse): void;
}

let cached: { key: string; checker: ConformanceChecker } | null = null;

/** A checker for `document` (reused across apps of the process while the document's paths are the same). */
export function conformanceChecker(document: Document): ConformanceChecker {
  const key = JSON.stringify(document.paths);
  if (cached?.key === key) return cached.checker;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi');
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let v = validators.get(pointer);
    if (!v) {
      v = ajv.getSchema(`openapi#${pointer}`);
      if (!v) throw new Error(`no schema at ${pointer}`);
      validators.set(pointer, v);
    }
    return v;
  };
  const routes = routesOf(document);
  const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

  const checker: ConformanceChecker = {
    check(method, url, res) {
      const path = url.split('?')[0];
      if (!path.startsWith('/v1/')) return;
      const route = routes.find((r) => r.pattern.test(path) && r.item[method.toLowerCase()]);
      if (!route) return;
      const m = method.toLowerCase();
      const operation = route.item[m];
      const status = String(res.statusCode);
      const fail = (why: string) => {
        throw new Error(
          `API document mismatch: ${method} ${path} (${route.path}) answered ${status}: ${why}\n  body: ${res.body.slice(0, 300)}`,
        );
      };
      const answer =
        operation.responses[status] ?? operation.responses[`${status[0]}XX`] ?? operation.responses.default;
      if (!answer)
        return fail(`status ${status} is not documented (documented: ${Object.keys(operation.responses).join(', ')})`);
      const bytes = decoded(res);
      if (!answer.content) {
        if (bytes.length > 0) fail('a body where the document says no content');
        return;
      }
      const type = String(res.headers['content-type'] ?? '')
        .split(';')[0]
        .trim();
      if (!(type in answer.content)) fail(`content type "${type}" not in ${Object.keys(answer.content).join(', ')}`);
      const pointer = `/paths/${escape(route.path)}/${m}/responses/${status in operation.responses ? status : 'default'}/content/${escape(type)}/schema`;
      if (!answer.content[type].schema) return;
      let body: unknown;
      if (type === 'application/json') {
        try {
          body = JSON.parse(bytes.toString('utf8'));
        } catch {
          return fail('a body that is not JSON');
        }
      } else if (type.startsWith('text/')) body = bytes.toString('utf8');
      else return;
      const validate = validatorAt(pointer);
      if (!validate(body)) fail(`body does not match the schema: ${ajv.errorsText(validate.errors)}`);
    },
  };
  cached = { key, checker };
  return checker;
}

/** The answer's bytes with its Content-Encoding (br, gzip, deflate) undone. */
function decoded(res: InjectResponse): Buffer {
  const raw = res.rawPayload;
  switch (res.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(raw);
    case 'gzip':
      return gunzipSync(raw);
    case 'deflate':
      return inflateSync(raw);
    default:
      return raw;
  }
}

type Injectable = { inject: (...args: never[]) => unknown; swagger: () => unknown };

/**
 * Makes `app.inject(options)` check every answer against the app's own document (see the module comment).
 * The chained and callback forms of `inject` are left as they are.
 */
export function checkAnswersAgainstDocument(app: Injectable): void {
  const checker = conformanceChecker(app.swagger() as Document);
  const inject = (app.inject as (...args: unknown[]) => unknown).bind(app);
  (app as { inject: unknown }).inject = (...args: unknown[]) => {
    if (args.length !== 1 || args[0] === undefined) return inject(...args);
    return (inject(args[0]) as Promise<InjectResponse>).then((res) => {
      const req = res.raw.req as { method?: string; url?: string };
      checker.check(req.method ?? 'GET', req.url ?? '/', res);
      return res;
    });
  };
}
