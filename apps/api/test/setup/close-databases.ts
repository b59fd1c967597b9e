/**
 * Vitest setup file of both API projects: runs in every test file, also when files share a worker's modules
 * (`isolate: false`, vitest.config.ts). The databases a file's tests emptied for reuse (helper.ts) close with
 * the file, so no database thread or connection pool outlives the file that opened it.
 */
import { afterAll } from 'vitest';
import { closeIdleDatabases } from '../helper.js';

afterAll(closeIdleDatabases);
