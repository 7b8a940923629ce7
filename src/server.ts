import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createLogger } from './logger.ts';
import type { EmbeddedServer } from './db/embedded/embedded-server.ts';
import { buildApp, type App } from './app.ts';
import { closeDeps, createDeps, type Deps } from './deps.ts';
import { migrateToLatest } from './db/migrate.ts';
import { ensureFirstSuperuser } from './modules/users/users.service.ts';
import { startWorkers } from './workers.ts';
import { sealStoredSecrets } from './modules/webhooks/sealed-credentials.ts';
import { connectProviderEvents } from './modules/dialer/call-events/provider-events.ts';

export interface RunningService {
  app: App;
  deps: Deps;
  url: string;
  stop(): Promise<void>;
}

/** Prepares the database (migrations, first superuser, secrets stored before sealing) for any process that uses it. */
export async function prepareDatabase(deps: Deps, options: { announce?: boolean } = {}) {
  const started = Date.now();
  const applied = await migrateToLatest(deps.db, options.announce ? ({ name, index, count }) => deps.log.info(`Applying migrations ${index}/${count} (${name})`) : undefined);
  if (options.announce && applied.length > 0) deps.log.info(`Applied ${applied.length} migration${applied.length === 1 ? '' : 's'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await ensureFirstSuperuser(deps.db, deps.config.FIRST_USER_EMAIL, deps.config.FIRST_USER_PASSWORD);
  await sealStoredSecrets(deps.db, deps.secrets);
}

/** `voice-campaigns serve`: the HTTP API plus the background workers. The only place that listens. */
export async function startServer(
  config: Config,
  /** `embeddedServer`: already starting (cli.ts, which also says which database it waits for). */
  options: { workers?: boolean; log?: Logger; embeddedServer?: Promise<EmbeddedServer> } = {},
): Promise<RunningService> {
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const deps = await createDeps(config, { log, ...(options.embeddedServer ? { embeddedServer: options.embeddedServer } : {}) });
  // Decided here, once: the simulator's events go to the events service in-process; the
  // events route is for vendors.
  connectProviderEvents(deps);
  try {
    await prepareDatabase(deps, { announce: true });
    log.info('Preparing the HTTP API');
    const app = await buildApp(deps);
    const url = await app.listen({ port: config.PORT, host: config.HOST, listenTextResolver: (address) => `Listening on ${address}` });
    const background = options.workers === false ? null : startWorkers(deps);
    // Name the database in use: the data directory only matters to the embedded one.
    const where = config.DATABASE_URL ? { database: deps.database.kind, databaseHost: new URL(config.DATABASE_URL).host } : { database: deps.database.kind, dataDir: config.DATA_DIR };
    app.log.info({ ...where, url }, 'voice-campaigns ready');
    app.log.info(`Dashboard: ${url}/`);
    let stopping: Promise<void> | undefined;
    return {
      app,
      deps,
      url,
      stop: () =>
        (stopping ??= (async () => {
          await app.close();
          await background?.stop();
          await closeDeps(deps);
        })()),
    };
  } catch (error) {
    await closeDeps(deps);
    throw error;
  }
}
