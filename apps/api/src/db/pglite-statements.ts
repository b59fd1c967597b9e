/**
 * Named prepared statements on the embedded database (docs/decisions/035-pglite-named-statements.md, issue 24).
 *
 * PGlite's `query()` sends every statement through six exchanges with its WebAssembly backend (Parse,
 * Describe, Bind, Describe, Execute, Sync), and PostgreSQL parses and plans the text each time: about 220 µs
 * for a primary-key lookup on this machine. A statement prepared once under a name and then run as one
 * exchange (Bind, Execute, Sync) costs about 40 µs. This module keeps those names, one per SQL text, for the
 * database thread (`pglite.worker.ts`); it runs on PGlite's own protocol API (`execProtocol`, `protocol.serialize`,
 * `parse.parseResults`), so the values are serialised and the rows parsed exactly as `query()` does.
 *
 * - Only data statements (`select`, `insert`, `update`, `delete`, `with`) are kept. Any other statement
 *   through {@link PgliteStatements.forget} (DDL of a migration, `exec`) closes every kept statement, so no
 *   plan outlives a schema change.
 * - At most {@link STATEMENT_CACHE_SIZE} texts are kept; the least recently used one is closed to make room.
 * - The caller holds PGlite's locks (`pglite.worker.ts`): statements of one PGlite never interleave.
 */
import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

/** Texts kept prepared at once (each is a parsed statement and, after five runs, a cached plan in the backend). */
export const STATEMENT_CACHE_SIZE = 256;

const S = protocol.serialize;
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
/** Statement names, unique in the process (so that two caches on one PGlite never collide). */
let lastName = 0;

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];
interface Prepared {
  name: string;
  /** The parameter types PostgreSQL inferred (oids), which pick each value's serialiser. */
  paramTypes: number[];
  /** The statement's row description (absent for a statement without rows), given to `parseResults`. */
  rowDescription: BackendMessage | undefined;
}

/** The prepared statements of one PGlite, by SQL text. */
export class PgliteStatements {
  private readonly byText = new Map<string, Prepared>();
  /** Names to close with the next exchange that prepares. */
  private toClose: string[] = [];
  /** Set by {@link forget}; the next {@link run}, under PGlite's locks, closes every kept statement. */
  private stale = false;

  constructor(
    private readonly pg: PGlite,
    private readonly size = STATEMENT_CACHE_SIZE,
  ) {}

  /** Whether `sql` runs through a kept statement ({@link run}); other statements go through `PGlite.query`. */
  static keeps(sql: string): boolean {
    return DATA_STATEMENT.test(sql);
  }

  /**
   * Closes every kept statement, from the next {@link run} on: call around any statement {@link keeps} refuses.
   * Only a flag, so that it may be called outside PGlite's locks: the kept statements change only inside `run`.
   */
  forget(): void {
    this.stale = true;
  }

  /**
   * Runs `sql` with `params` as `PGlite.query(sql, params, options)` would, on a kept statement (prepared on
   * first use). `inTransaction`: inside an open transaction (no file-system sync after it). Throws PostgreSQL's
   * error (`code`, `constraint`, `detail`...) as `query` does. The caller holds PGlite's locks.
   */
  async run(
    sql: string,
    params: unknown[] | undefined,
    options: Pick<QueryOptions, 'rowMode' | 'parsers'>,
    inTransaction: boolean,
  ): Promise<Results> {
    if (this.stale) {
      for (const p of this.byText.values()) this.toClose.push(p.name);
      this.byText.clear();
      this.stale = false;
    }
    const statement = this.byText.get(sql) ?? (await this.prepare(sql));
    // Most recently used last: the first key is the one to close when the cache is full.
    this.byText.delete(sql);
    this.byText.set(sql, statement);
    const values = (params ?? []).map((value, i) => {
      if (value === null || value === undefined) return null;
      const serialize = this.pg.serializers[statement.paramTypes[i]];
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- as PGlite's query() does (`toString()`)
      return serialize ? serialize(value) : String(value);
    });
    const { messages } = await this.pg.execProtocol(
      Buffer.concat([S.bind({ statement: statement.name, values }), S.execute({}), S.sync()]),
      { syncToFs: !inTransaction },
    );
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return parse.parseResults(described, this.pg.parsers, options)[0];
  }

  private async prepare(sql: string): Promise<Prepared> {
    const closing = this.toClose;
    this.toClose = [];
    if (this.byText.size >= this.size) {
      const [oldest, p] = this.byText.entries().next().value as [string, Prepared];
      this.byText.delete(oldest);
      closing.push(p.name);
    }
    const name = `tp_${++lastName}`;
    const { messages } = await this.pg.execProtocol(
      Buffer.concat([
        ...closing.map((n) => S.close({ type: 'S', name: n })),
        S.parse({ name, text: sql }),
        S.describe({ type: 'S', name }),
        S.sync(),
      ]),
      { syncToFs: false },
    );
    return {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((m) => m.name === 'rowDescription'),
    };
  }
}
