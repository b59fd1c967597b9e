/**
 * Vitest global setup (PostgreSQL project): start a server, migrate a template database, bundle the API's server for
 * the tests that start processes (server-bundle.ts).
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startPostgres } from '../../../../scripts/postgres.js';
import { openDatabase } from '../../src/db/client.js';
import { bundleServer } from './server-bundle.js';

export default async function setup(project: TestProject) {
  const server = await startPostgres();
  const admin = new pg.Client({ connectionString: server.url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE tp_template');
  const database = await openDatabase({ databaseUrl: server.url('tp_template'), dataDir: '' });
  await database.close();
  await admin.end();
  project.provide('dbTemplate', `pg:${server.url('postgres')}`);
  const bundle = await bundleServer();
  project.provide('serverBundle', bundle.dir);
  return () => {
    bundle.remove();
    return server.stop();
  };
}
