import { inject } from 'vitest';
import type { Logger } from 'pino';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { depsFromDatabase, type Deps } from '../../src/deps.ts';
import type { Clock } from '../../src/shared/clock.ts';
import type { VoiceProvider } from '../../src/voice/provider.ts';
import { createTestDatabase, type TestDatabase } from './test-database.ts';
import { connectProviderEvents } from '../../src/modules/dialer/call-events/provider-events.ts';

export interface TestApp {
  app: App;
  deps: Deps;
  database: TestDatabase;
  config: Config;
  /** A real HTTP request through the whole Fastify stack (routing, hooks, validation, serialisation). */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * What a test replaces of the outside world, given before the app is built (so every route and
 * hook sees it from the start): the clock, and the voice provider made from the config and clock.
 */
export interface TestOverrides {
  clock?: Clock;
  voice?: (config: Config, clock: Clock) => VoiceProvider;
  /** The built dashboard's directory served at / (default: the repository's ui/dist). */
  dashboardDir?: string;
  /** The process logger (default: silent, Fastify's request lines off); given, the app logs through it as `serve` does. */
  log?: Logger;
}

/** One app on one fresh database; call in beforeAll and close in afterAll. */
export async function createTestApp(env: Record<string, string> = {}, overrides: TestOverrides = {}): Promise<TestApp> {
  const database = await createTestDatabase(inject('databaseTemplate'));
  const config = loadConfig({
    DATA_DIR: database.dataDir,
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const deps = depsFromDatabase(config, database.handle, overrides.log);
  if (overrides.clock) deps.clock = overrides.clock;
  if (overrides.voice) deps.voice = overrides.voice(config, deps.clock);
  // As server.ts does: the simulator's events go to the events service in-process.
  connectProviderEvents(deps);
  const app = await buildApp(deps, { ...(overrides.log ? {} : { logger: false }), ...(overrides.dashboardDir ? { dashboardDir: overrides.dashboardDir } : {}) });
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
