/**
 * The mail layout compiler's thread (providers/mail/mjml-compiler.ts, issue 44): the layouts compiled on the
 * thread are the ones compiled in place, MJML's errors come back as errors, and the thread that ended after its
 * idle time or was closed leaves no layout hanging.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { compileMjmlInPlace, createMjmlCompiler, type MjmlCompiler } from '../src/providers/mail/mjml-compiler.js';

const workerFile = () => join(inject('serverBundle'), 'mail-layout.worker.js');
const doc = (text: string) =>
  `<mjml lang="en"><mj-body><mj-section><mj-column><mj-text font-family="Roboto, Arial">${text}</mj-text></mj-column></mj-section></mj-body></mjml>`;

let compiler: MjmlCompiler | null = null;
afterEach(async () => {
  await compiler?.close();
  compiler = null;
});

describe('the mail layout thread', () => {
  it('compiles what MJML compiles in place, web fonts left out', async () => {
    compiler = createMjmlCompiler({ workerFile: workerFile() });
    const [threaded, inPlace] = await Promise.all([compiler.compile(doc('Hola')), compileMjmlInPlace(doc('Hola'))]);
    expect(threaded).toBe(inPlace);
    expect(threaded).toContain('Hola');
    expect(threaded).not.toMatch(/fonts\.googleapis/);
  });

  it("answers MJML's strict validation error as an error, and goes on compiling", async () => {
    compiler = createMjmlCompiler({ workerFile: workerFile() });
    const invalid = '<mjml><mj-body><mj-section><mj-text>loose</mj-text></mj-section></mj-body></mjml>';
    await expect(compiler.compile(invalid)).rejects.toThrow(/mj-text/);
    await expect(compiler.compile(doc('after'))).resolves.toContain('after');
  });

  it('starts a new thread after the last one ended for idleness', async () => {
    compiler = createMjmlCompiler({ workerFile: workerFile(), idleMs: 20 });
    await expect(compiler.compile(doc('one'))).resolves.toContain('one');
    await new Promise((r) => setTimeout(r, 300));
    await expect(compiler.compile(doc('two'))).resolves.toContain('two');
  });

  it('fails a layout still compiling when closed, and compiles again after', async () => {
    compiler = createMjmlCompiler({ workerFile: workerFile() });
    const first = expect(compiler.compile(doc('first'))).rejects.toThrow(/closed/);
    await compiler.close();
    await first;
    await expect(compiler.compile(doc('again'))).resolves.toContain('again');
  });
});
