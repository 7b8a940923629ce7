import { inject } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { depsFromDatabase, type Deps } from '../../src/deps.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';

export interface TestApp {
  app: App;
  deps: Deps;
  database: TestDatabase;
  config: Config;
  /** A real HTTP request through the whole Fastify stack (routing, hooks, validation, serialisation). */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** One app on one fresh database; call in beforeAll and close in afterAll. */
export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase(inject('databaseTemplate'));
  const config = loadConfig({
    DATA_DIR: database.dataDir,
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const deps = depsFromDatabase(config, database.handle);
  const app = await buildApp(deps, { logger: false });
  await app.ready();
  return {
    app,
    deps,
    database,
    config,
    request: (options) => app.inject(options),
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
