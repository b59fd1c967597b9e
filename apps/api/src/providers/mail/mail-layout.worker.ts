/**
 * The mail layout compiler's thread (mjml-compiler.ts): MJML source in, HTML out, strict validation. MJML and what
 * it pulls in load here, on the first layout, never on the event loop.
 */
import { parentPort } from 'node:worker_threads';
import { compileMjmlInPlace, type MjmlReply, type MjmlRequest } from './mjml-compiler.js';

const port = parentPort!;
port.on('message', ({ id, source }: MjmlRequest) => {
  compileMjmlInPlace(source).then(
    (html) => port.postMessage({ id, html } satisfies MjmlReply),
    (err: unknown) =>
      port.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies MjmlReply),
  );
});
