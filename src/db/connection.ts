import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { embeddedConnections, startEmbeddedServer, type EmbeddedServer } from './embedded/embedded-server.ts';
import { readLockOwner } from './embedded/data-dir-lock.ts';

// pg returns int8 and numeric as strings; PGlite over the socket does the same. Ids and
// counts fit in a double, so both drivers give numbers everywhere.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  pool: pg.Pool;
  kind: 'postgres' | 'embedded';
  /**
   * The pool HTTP requests use: every statement stops after `statementTimeoutMs` on
   * PostgreSQL (its own connections, so background work keeps none). The embedded database
   * has no statement timer and serves one small account, so it answers with `db`. Opened once,
   * closed with the handle.
   */
  requestDatabase(statementTimeoutMs: number): Db;
  /**
   * A pool of its own on the same PostgreSQL database whose sessions carry `settings` (run-time
   * parameters, as `-c name=value`), for work that needs settings the shared pool must not have;
   * null on the embedded database (one small account, one pool). Its owner ends it.
   */
  sessionPool(settings: Record<string, string>, max: number): pg.Pool | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize: number;
  /**
   * When the embedded data directory is owned by a running service, connect to that
   * service's database instead of failing (used by the CLI).
   */
  joinRunningEmbedded?: boolean;
  /**
   * The embedded server, already starting: `serve` starts it while it loads the rest of the
   * service, so PGlite's start (on its own thread) and the module loading overlap.
   */
  embeddedServer?: Promise<EmbeddedServer>;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const connectionString = options.databaseUrl;
    const pool = new pg.Pool({ connectionString, max: options.poolSize });
    return handle(pool, 'postgres', async () => {}, (settings, max) => {
      const sessionOptions = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`).join(' ');
      const own = new pg.Pool({ connectionString, max, options: sessionOptions, allowExitOnIdle: true });
      own.on('error', () => {});
      return own;
    });
  }
  const owner = options.joinRunningEmbedded ? readLockOwner(options.dataDir) : null;
  if (owner) {
    const pool = new pg.Pool({ host: owner.host, port: owner.port, user: 'postgres', database: 'postgres', max: 2 });
    return handle(pool, 'embedded', async () => {});
  }
  const server = await (options.embeddedServer ?? startEmbeddedServer(options.dataDir, embeddedConnections(options.poolSize)));
  const pool = new pg.Pool({ host: server.host, port: server.port, user: 'postgres', database: 'postgres', max: options.poolSize });
  return handle(pool, 'embedded', () => server.stop());
}

function handle(
  pool: pg.Pool,
  kind: DatabaseHandle['kind'],
  stopServer: () => Promise<void>,
  sessionPool?: (settings: Record<string, string>, max: number) => pg.Pool,
): DatabaseHandle {
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let requestDb: Db | undefined;
  return {
    db,
    pool,
    kind,
    requestDatabase(statementTimeoutMs) {
      if (!sessionPool) return db;
      requestDb ??= new Kysely<Database>({ dialect: new PostgresDialect({ pool: sessionPool({ statement_timeout: String(statementTimeoutMs) }, pool.options.max) }) });
      return requestDb;
    },
    sessionPool: (settings, max) => sessionPool?.(settings, max) ?? null,
    async close() {
      await requestDb?.destroy();
      await db.destroy();
      await stopServer();
    },
  };
}
