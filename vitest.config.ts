import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/slow-first-sequencer.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    // expect.poll waits for what a browser or a worker does next; its default 1 s is shorter than
    // a request takes on a loaded 2-core CI machine (a dialog that closed after 1.2 s failed a test).
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 3,
    // Files share their worker's module cache: importing the service (Fastify, TypeBox, PGlite)
    // once per worker instead of once per file cut the PostgreSQL pass from 5.3 to 3.3 min.
    // Every file builds its own app and database, and no test mocks a module.
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
  },
});
