/**
 * Vitest setup file of both API projects: runs in every test file, also when files share a worker's modules
 * (`isolate: false`, vitest.config.ts). After each file the databases its tests emptied for reuse (helper.ts) close,
 * all but one: the worker's next file starts on it instead of opening a copy of the template (on PGlite a database
 * thread and its data directory loaded, ~0.5 s of CPU; on PostgreSQL a CREATE DATABASE). The worker's process
 * ends at the end of the run with it.
 */
import { afterAll } from 'vitest';
import { closeIdleDatabases } from '../helper.js';

afterAll(() => closeIdleDatabases(1));
