/**
 * The mail layout compiler's thread (mjml-compiler.ts): MJML source in, HTML out, strict validation. MJML and what
 * it pulls in load here, on the first layout, never on the event loop.
 */
import { serveTasks } from '../../lib/task-thread.js';
import { compileMjmlInPlace } from './mjml-compiler.js';

serveTasks(compileMjmlInPlace);
