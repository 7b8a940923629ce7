import { parseArgs } from 'node:util';
import { loadConfig, ConfigError } from './config.ts';
import { createDeps } from './deps.ts';
import { migrateToLatest } from './db/migrate.ts';
import { DataDirLockedError } from './db/embedded/data-dir-lock.ts';
import { prepareDatabase, startServer } from './server.ts';
import { startWorkers } from './workers.ts';
import { createUser, findUserByEmail } from './modules/users/users.service.ts';
import { createApiKey } from './modules/api-keys/api-keys.service.ts';

const USAGE = `Usage: voice-campaigns <command>

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
async function withDatabase<T>(run: (deps: Awaited<ReturnType<typeof createDeps>>) => Promise<T>): Promise<T> {
  const deps = await createDeps(loadConfig(), { joinRunningEmbedded: true });
  try {
    await prepareDatabase(deps);
    return await run(deps);
  } finally {
    await deps.database.close();
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

export async function main(argv: string[]): Promise<number> {
  const [command, sub, ...rest] = argv;
  const { values } = parseArgs({
    args: command === 'users' || command === 'api-keys' ? rest : [],
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      superuser: { type: 'boolean', default: false },
      'full-name': { type: 'string' },
      name: { type: 'string' },
    },
    strict: true,
  });
  switch (command) {
    case 'serve': {
      const service = await startServer(loadConfig());
      onSignals(service.stop);
      return -1; // keep running
    }
    case 'worker': {
      const config = loadConfig();
      if (!config.DATABASE_URL) {
        console.error('voice-campaigns worker needs DATABASE_URL: on the embedded database, `serve` already runs the workers.');
        return 2;
      }
      const deps = await createDeps(config);
      await prepareDatabase(deps);
      const workers = startWorkers(deps);
      console.error(`worker running: ${workers.workers.map((w) => w.name).join(', ') || 'no loops configured'}`);
      onSignals(async () => { await workers.stop(); await deps.database.close(); });
      return -1;
    }
    case 'migrate': {
      const applied = await withDatabase(async (deps) => migrateToLatest(deps.db));
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      return 0;
    }
    case 'users':
      if (sub !== 'create' || !values.email || !values.password) break;
      await withDatabase(async ({ db }) => {
        const user = await createUser(db, { email: values.email!, password: values.password!, is_superuser: values.superuser, full_name: values['full-name'] ?? null });
        console.log(`created user ${user.id} <${user.email}>${user.is_superuser ? ' (superuser)' : ''}`);
      });
      return 0;
    case 'api-keys':
      if (sub !== 'create' || !values.email) break;
      return withDatabase(async ({ db }) => {
        const user = await findUserByEmail(db, values.email!);
        if (!user) {
          console.error(`no user with e-mail ${values.email}`);
          return 1;
        }
        const key = await createApiKey(db, user.id, values.name ?? null);
        console.log(`API key ${key.id} for ${user.email} (shown once):`);
        console.log(key.key);
        return 0;
      });
  }
  console.error(USAGE);
  return 2;
}

export async function runCli(argv: string[]) {
  try {
    const code = await main(argv);
    if (code >= 0) process.exit(code);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      console.error(error.message);
      process.exit(1);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status < 500) {
      console.error((error as Error).message);
      process.exit(1);
    }
    console.error(error);
    process.exit(1);
  }
}
