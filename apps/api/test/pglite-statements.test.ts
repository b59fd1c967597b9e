/**
 * The embedded database's named statements (src/db/pglite-statements.ts, decision 035): a kept statement answers
 * what PGlite's `query` answers (rows, types, fields, counts, errors), the cache stays within its size, a schema
 * change closes what was kept, and an error leaves the connection usable. Through the database thread
 * (pglite-proxy.ts), a statement outside a transaction still waits for an open one to end.
 */
import { readFileSync } from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PgliteStatements } from '../src/db/pglite-statements.js';
import { PgliteProxy } from '../src/db/pglite-proxy.js';
import { onPostgres } from './helper.js';

const keepText = (value: string) => value;

describe.skipIf(onPostgres())('PGlite named statements', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = await PGlite.create();
    await pg.exec(`create table t (id int primary key, name text, at timestamptz, data jsonb, ok boolean,
      tags text[], price numeric(10,2), big bigint);
      insert into t values (1, 'one', '2026-01-02T03:04:05Z', '{"a":[1,2]}', true, '{x,y}', 12.5, 9007199254740993),
        (2, null, null, null, null, null, null, null);`);
  });
  afterAll(() => pg.close());

  const cases: [string, unknown[]][] = [
    ['select * from t order by id', []],
    ['select id, name, at, data, ok, tags, price, big from t where id = $1', [1]],
    ['select * from t where at < $1 and data @> $2 and ok = $3', [new Date('2027-01-01T00:00:00Z'), { a: [1] }, true]],
    ['select * from t where id = any($1)', [[1, 2]]],
    ['select $1::text as s, $2::int as n', [null, undefined]],
    ['select 1 as x where false', []],
  ];

  it.each(cases)('answers as query() does: %s', async (sql, params) => {
    const statements = new PgliteStatements(pg);
    for (const options of [{}, { rowMode: 'array' as const }, { parsers: { [types.TIMESTAMPTZ]: keepText } }]) {
      const kept = await statements.run(sql, params, options, false);
      const again = await statements.run(sql, params, options, false);
      const plain = await pg.query(sql, params, options);
      expect(kept.rows).toEqual(plain.rows);
      expect(again.rows).toEqual(plain.rows);
      expect(kept.fields).toEqual(plain.fields);
      expect(kept.affectedRows).toBe(plain.affectedRows);
    }
  });

  it('counts the rows a write touched and answers its returning rows', async () => {
    const statements = new PgliteStatements(pg);
    const inserted = await statements.run(
      'insert into t (id, name) values ($1, $2), ($3, $4) returning id, name',
      [10, 'ten', 11, 'eleven'],
      {},
      false,
    );
    expect(inserted.rows).toEqual([
      { id: 10, name: 'ten' },
      { id: 11, name: 'eleven' },
    ]);
    expect(inserted.affectedRows).toBe(2);
    const updated = await statements.run('update t set name = $1 where id >= $2', ['x', 10], {}, false);
    expect(updated).toMatchObject({ affectedRows: 2, rows: [] });
    expect((await statements.run('delete from t where id >= $1', [10], {}, false)).affectedRows).toBe(2);
  });

  it("throws PostgreSQL's error and the next statement runs", async () => {
    const statements = new PgliteStatements(pg);
    const insert = 'insert into t (id) values ($1)';
    await expect(statements.run(insert, [1], {}, false)).rejects.toMatchObject({
      code: '23505',
      constraint: 't_pkey',
    });
    await expect(statements.run('select nope from t', [], {}, false)).rejects.toMatchObject({ code: '42703' });
    expect((await statements.run('select count(*)::int as n from t', [], {}, false)).rows).toEqual([{ n: 2 }]);
    expect((await statements.run(insert, [3], {}, false)).affectedRows).toBe(1);
    await pg.query('delete from t where id = 3');
  });

  it('keeps at most its size, closing the least recently used', async () => {
    const statements = new PgliteStatements(pg, 2);
    const count = async () =>
      (await pg.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements where name like 'tp_%'`))
        .rows[0].n;
    const before = await count();
    for (let i = 0; i < 5; i++) await statements.run(`select ${i} as i`, [], {}, false);
    // The fifth prepare closed the third; the fourth and fifth stay.
    expect((await count()) - before).toBe(2);
    expect((await statements.run('select 4 as i', [], {}, false)).rows).toEqual([{ i: 4 }]);
  });

  it('after forget() (a schema change), a kept text is prepared again with the new columns', async () => {
    const statements = new PgliteStatements(pg);
    await pg.exec('create table s (id int)');
    await pg.exec('insert into s values (1)');
    expect((await statements.run('select * from s', [], {}, false)).rows).toEqual([{ id: 1 }]);
    await pg.exec('alter table s add column name text');
    statements.forget();
    expect((await statements.run('select * from s', [], {}, false)).rows).toEqual([{ id: 1, name: null }]);
  });
});

describe.skipIf(onPostgres())('the database thread', () => {
  it('runs a statement outside a transaction only after the open transaction ends', async () => {
    const template = inject('dbTemplate').slice('pglite:'.length);
    const db = await PgliteProxy.open(
      { loadDataDir: new Uint8Array(readFileSync(template)) },
      new URL(inject('pgliteWorker')),
    );
    try {
      await db.exec('create table q (id int)');
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const tx = db.transaction(async (t) => {
        await t.query('insert into q values ($1)', [1]);
        await held;
      });
      // Outside the transaction: must not see (or run inside) the uncommitted row.
      const outside = db.query<{ n: number }>('select count(*)::int as n from q', []);
      const order: string[] = [];
      void outside.then(() => order.push('outside'));
      await new Promise((r) => setTimeout(r, 50));
      order.push('commit');
      release();
      await tx;
      expect((await outside).rows).toEqual([{ n: 1 }]);
      expect(order).toEqual(['commit', 'outside']);
      // A statement of a closed transaction is refused.
      await expect(db.query('select 1', [], undefined, 999)).rejects.toThrow('Transaction is closed');
    } finally {
      await db.close();
    }
  });
});
