import { parseArgs } from 'node:util';
import { createLogger, startupLogLevel } from './logger.ts';
import { checkPortFree } from './port-check.ts';
import type { Deps } from './deps.ts';
import type { Config } from './config.ts';
import type { NewUserInput } from './modules/users/users.service.ts';

// Nothing heavy is imported above: the settings (TypeBox, ~700 modules), the service (Fastify,
// the modules, PGlite) are imported by the command that uses them, after `serve` has said it is
// starting. Loading them takes seconds on a busy machine, and a person should not watch a
// silent terminal meanwhile.
const loadConfig = async () => (await import('./config.ts')).loadConfig();

const USAGE = `Usage: voice-campaigns <command>   (--help prints this)

Commands:
  serve                                   run the HTTP API and the background workers
  worker                                  run only the background workers (scale-out; needs DATABASE_URL)
  migrate                                 apply database migrations
  users create --email E --password P [--superuser] [--full-name N]
  api-keys create --email E [--name N]    create an API key; the key is printed on the last line

Settings come from environment variables (see README). While \`serve\` runs on the
embedded database, the other commands connect to its database through the socket it
publishes in DATA_DIR, so they work at the same time.`;

/** Runs a one-shot command against the database, joining a running embedded server if there is one. */
async function withDatabase<T>(run: (deps: Deps) => Promise<T>, options = { prepare: true }): Promise<T> {
  const { closeDeps, createDeps } = await import('./deps.ts');
  const { prepareDatabase } = await import('./server.ts');
  const deps = await createDeps(await loadConfig(), { joinRunningEmbedded: true });
  try {
    if (options.prepare) await prepareDatabase(deps);
    return await run(deps);
  } finally {
    await closeDeps(deps);
  }
}

function onSignals(stop: () => Promise<void>) {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal} received: stopping gracefully`);
    stop().then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}

/** The options each command takes; anything else is refused by name. */
const COMMANDS: Record<string, Record<string, { type: 'string' | 'boolean' }>> = {
  serve: {},
  worker: {},
  migrate: {},
  'users create': { email: { type: 'string' }, password: { type: 'string' }, superuser: { type: 'boolean' }, 'full-name': { type: 'string' } },
  'api-keys create': { email: { type: 'string' }, name: { type: 'string' } },
};

/** A mistake on the command line: one line naming it, then the usage. */
class UsageError extends Error {}

function parseCommand(argv: string[]): { command: string; values: Record<string, string | boolean | undefined> } | 'help' {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return 'help';
  const twoWords = `${argv[0]} ${argv[1] ?? ''}`.trim();
  const command = COMMANDS[argv[0]!] ? argv[0]! : COMMANDS[twoWords] ? twoWords : null;
  if (!command) throw new UsageError(`unknown command '${argv.slice(0, argv[0] === 'users' || argv[0] === 'api-keys' ? 2 : 1).join(' ')}'`);
  const args = argv.slice(command.split(' ').length);
  try {
    const { values, positionals } = parseArgs({ args, options: COMMANDS[command]!, strict: true, allowPositionals: true });
    if (positionals.length > 0) throw new UsageError(`${command}: unexpected argument '${positionals[0]}'`);
    return { command, values };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // Settings are environment variables; `serve --port 9000` used to be ignored silently.
    const hint = Object.keys(COMMANDS[command]!).length === 0 ? ' (settings are environment variables, e.g. PORT=9000 voice-campaigns serve)' : '';
    throw new UsageError(`${command}: ${(error as Error).message.split('. ')[0]}${hint}`);
  }
}

/** The API's own body validation, so the CLI refuses exactly what POST /api/v1/users refuses (422). */
async function checkNewUser(input: Record<string, unknown>): Promise<void> {
  const { UserCreate } = await import('./modules/users/users.schemas.ts');
  const { buildValidator } = await import('./http/validators.ts');
  const { toValidationIssues } = await import('./http/validation-errors.ts');
  const validate = buildValidator({})({ schema: UserCreate, method: 'POST', url: '/api/v1/users/', httpPart: 'body' });
  if (validate(input)) return;
  const issues = toValidationIssues((validate.errors ?? []) as never, 'body');
  const flag = (loc: (string | number)[]) => `--${String(loc[1] ?? '').replace(/_/g, '-')}`;
  throw new UsageError(`users create: ${issues.map((i) => `${flag(i.loc)}: ${i.msg}`).join('; ')}`);
}

export async function main(argv: string[]): Promise<number> {
  const parsed = parseCommand(argv);
  if (parsed === 'help') {
    console.log(USAGE);
    return 0;
  }
  const { command, values } = parsed;
  switch (command) {
    case 'serve': {
      // In this order: say so at once, find a taken port before anything is created (the data
      // directory, its secret, the database), then load the service. LOG_LEVEL is read before
      // the settings are validated; a bad one is refused by name a moment later.
      const log = createLogger(startupLogLevel(process.env.LOG_LEVEL));
      log.info('Starting voice-campaigns');
      const { parseConfig } = await import('./config.ts');
      const settings = parseConfig();
      await checkPortFree(settings.PORT, settings.HOST);
      const config = await loadConfig();
      const { databaseAnnouncement } = await import('./db/announce.ts');
      log.info(databaseAnnouncement(config));
      // The embedded database starts on its own thread while the service's modules load here.
      const embeddedServer = config.DATABASE_URL
        ? undefined
        : import('./db/embedded/embedded-server.ts').then(({ startEmbeddedServer, embeddedConnections }) => startEmbeddedServer(config.DATA_DIR, embeddedConnections(config.DB_POOL_SIZE)));
      // startServer awaits it; this only keeps a failure (a locked DATA_DIR) from counting as unhandled meanwhile.
      embeddedServer?.catch(() => {});
      const { startServer } = await import('./server.ts');
      const service = await startServer(config, { log, ...(embeddedServer ? { embeddedServer } : {}) });
      onSignals(service.stop);
      return -1; // keep running
    }
    case 'worker': {
      const config = await loadConfig();
      if (!config.DATABASE_URL) {
        console.error('voice-campaigns worker needs DATABASE_URL: on the embedded database, `serve` already runs the workers.');
        return 2;
      }
      const { createDeps, closeDeps } = await import('./deps.ts');
      const { prepareDatabase } = await import('./server.ts');
      const { startWorkers } = await import('./workers.ts');
      const { connectProviderEvents } = await import('./modules/dialer/call-events/provider-events.ts');
      const deps = await createDeps(config);
      connectProviderEvents(deps);
      await prepareDatabase(deps);
      const workers = startWorkers(deps);
      console.error(`worker running: ${workers.workers.map((w) => w.name).join(', ') || 'no loops configured'}`);
      onSignals(async () => { await workers.stop(); await closeDeps(deps); });
      return -1;
    }
    case 'migrate': {
      // Migrations only: prepareDatabase would apply them first and leave nothing to report.
      const { migrateToLatest } = await import('./db/migrate.ts');
      const applied = await withDatabase(async (deps) => migrateToLatest(deps.db), { prepare: false });
      console.log(applied.length ? `applied ${applied.length} migration${applied.length === 1 ? '' : 's'}: ${applied.join(', ')}` : 'database is up to date: no migration to apply');
      return 0;
    }
    case 'users create': {
      if (values.email === undefined || values.password === undefined) throw new UsageError('users create needs --email and --password');
      const input = { email: values.email, password: values.password, full_name: values['full-name'] ?? null, is_superuser: values.superuser === true, is_active: true };
      await checkNewUser(input);
      const { createUser } = await import('./modules/users/users.service.ts');
      await withDatabase(async ({ db }) => {
        const user = await createUser(db, input as NewUserInput);
        console.log(`created user ${user.id} <${user.email}>${user.is_superuser ? ' (superuser)' : ''}`);
      });
      return 0;
    }
    case 'api-keys create': {
      if (values.email === undefined) throw new UsageError('api-keys create needs --email');
      const { findUserByEmail } = await import('./modules/users/users.service.ts');
      const { createApiKey } = await import('./modules/api-keys/api-keys.service.ts');
      return withDatabase(async ({ db }) => {
        const user = await findUserByEmail(db, String(values.email));
        if (!user) {
          console.error(`no user with e-mail ${values.email}`);
          return 1;
        }
        const key = await createApiKey(db, user.id, typeof values.name === 'string' ? values.name : null);
        console.log(`API key ${key.id} for ${user.email} (shown once):`);
        console.log(key.key);
        return 0;
      });
    }
  }
  throw new UsageError(`unknown command '${command}'`);
}

/** The settings for an error message (read without creating DATA_DIR); null when they are what failed. */
async function configOrNull(): Promise<Config | null> {
  try {
    const { parseConfig } = await import('./config.ts');
    return { ...parseConfig(), SECRET_KEY: '' };
  } catch {
    return null;
  }
}

export async function runCli(argv: string[]) {
  try {
    const code = await main(argv);
    if (code >= 0) process.exit(code);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`voice-campaigns: ${error.message}\n\n${USAGE}`);
      process.exit(2);
    }
    const { ConfigError } = await import('./config.ts');
    const { DataDirLockedError } = await import('./db/embedded/data-dir-lock.ts');
    const { EmbeddedDatabaseError } = await import('./db/embedded/stale-socket.ts');
    const { startupProblem } = await import('./startup-errors.ts');
    if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof EmbeddedDatabaseError) {
      console.error(error.message);
      process.exit(1);
    }
    const config = await configOrNull();
    const problem = startupProblem(error, config);
    if (problem) {
      console.error(problem);
      process.exit(1);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status < 500) {
      console.error((error as Error).message);
      process.exit(1);
    }
    // A failure nobody foresaw is a bug: one line to act on, the stack trace for its report on request.
    const verbose = config?.LOG_LEVEL === 'debug' || config?.LOG_LEVEL === 'trace';
    if (verbose) console.error(error);
    else console.error(`voice-campaigns failed: ${String((error as Error)?.message ?? error).split('\n')[0]} (LOG_LEVEL=debug prints the stack trace)`);
    process.exit(1);
  }
}
