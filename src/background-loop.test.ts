import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createBackgroundLoop, type BackgroundLoop, type BackgroundLoopOptions } from './background-loop.ts';
import { openDatabase, type DatabaseHandle } from './db/connection.ts';

/** A logger whose lines are kept, parsed. */
function recordingLog() {
  const lines: { level: number; msg: string; worker?: string; err?: { message: string } }[] = [];
  const log = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, done) => (lines.push(JSON.parse(String(chunk))), done()) }));
  return { lines, log: log.child({ worker: 'test' }) };
}

/** Resolves once `probe` holds; fails after `timeoutMs`. */
async function until(probe: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const loops: BackgroundLoop[] = [];
function loopOf(options: Partial<BackgroundLoopOptions> & Pick<BackgroundLoopOptions, 'round'>): BackgroundLoop {
  const loop = createBackgroundLoop({ name: 'test', log: recordingLog().log, tickMs: 60_000, ...options });
  loops.push(loop);
  return loop;
}
afterEach(async () => {
  await Promise.all(loops.splice(0).map((l) => l.stop()));
});

describe('the background loop', () => {
  it('sleeps the tick between rounds, and a wake-up cuts the sleep short', async () => {
    let rounds = 0;
    const loop = loopOf({ round: async () => void rounds++ });
    loop.start();
    await until(() => rounds === 1);
    // A minute's tick: only the wake-up can start the second round.
    await new Promise((r) => setTimeout(r, 50));
    expect(rounds).toBe(1);
    loop.wake();
    await until(() => rounds === 2);
  });

  it('runs the next round at once when a round says more is waiting, and sleeps after one that does not', async () => {
    let rounds = 0;
    const loop = loopOf({ round: async () => ++rounds < 3 });
    loop.start();
    await until(() => rounds === 3);
    await new Promise((r) => setTimeout(r, 50));
    expect(rounds).toBe(3);
  });

  it('does not sleep after a round during which it was woken', async () => {
    let rounds = 0;
    const gate = deferred();
    const loop = loopOf({
      round: async () => {
        rounds++;
        if (rounds === 1) await gate.promise;
      },
    });
    loop.start();
    await until(() => rounds === 1);
    loop.wake(); // mid-round: a wake-up the round may have missed
    gate.resolve();
    await until(() => rounds === 2);
  });

  it('logs a failed round through its logger and goes on', async () => {
    const { lines, log } = recordingLog();
    let rounds = 0;
    const loop = loopOf({
      log,
      tickMs: 10,
      round: async () => {
        if (++rounds === 1) throw new Error('database went away');
      },
    });
    loop.start();
    await until(() => rounds >= 2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, worker: 'test', msg: 'test round failed', err: { message: 'database went away' } });
  });

  it('logs a failed round at the level and with the message it was given', async () => {
    const { lines, log } = recordingLog();
    let rounds = 0;
    const loop = loopOf({
      log,
      tickMs: 10,
      failure: { level: 'warn', message: 'compaction failed; retrying' },
      round: async () => {
        if (++rounds === 1) throw new Error('busy');
      },
    });
    loop.start();
    await until(() => rounds >= 2);
    expect(lines[0]).toMatchObject({ level: 40, msg: 'compaction failed; retrying' });
  });

  it('stop() starts no round more and resolves only when the round in flight has finished', async () => {
    let rounds = 0;
    let finished = 0;
    const gate = deferred();
    const seen: boolean[] = [];
    const loop = loopOf({
      tickMs: 0,
      round: async (session) => {
        rounds++;
        await gate.promise;
        seen.push(session.stopped);
        finished++;
      },
    });
    loop.start();
    await until(() => rounds === 1);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    const again = loop.stop(); // a second stop waits for the same round
    await new Promise((r) => setTimeout(r, 30));
    expect(stopped).toBe(false);
    gate.resolve();
    await Promise.all([stopping, again]);
    expect({ rounds, finished, seen }).toEqual({ rounds: 1, finished: 1, seen: [true] });
  });

  it('waits for onStart before the first round, and subscribes to in-process wake-ups until stopped', async () => {
    const order: string[] = [];
    let listener: (() => void) | null = null;
    const gate = deferred();
    const loop = loopOf({
      onStart: async () => {
        order.push('start');
        await gate.promise;
        order.push('started');
      },
      wakeOn: (wake) => {
        listener = wake;
        return () => (listener = null);
      },
      round: async () => void order.push('round'),
    });
    loop.start();
    loop.start(); // already running: nothing more
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['start']);
    gate.resolve();
    await until(() => order.length === 3);
    listener!();
    await until(() => order.length === 4);
    expect(order).toEqual(['start', 'started', 'round', 'round']);
    await loop.stop();
    expect(listener).toBeNull();
  });

  it('can be started again after a stop', async () => {
    let rounds = 0;
    const loop = loopOf({ round: async () => void rounds++ });
    loop.start();
    await until(() => rounds === 1);
    await loop.stop();
    loop.start();
    await until(() => rounds === 2);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('the background loop on PostgreSQL', () => {
  let database: DatabaseHandle;
  const channel = `vc_loop_test_${process.pid}`;

  it('wakes on NOTIFY on its channel', async () => {
    database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: tmpdir(), poolSize: 2 });
    try {
      let rounds = 0;
      const loop = loopOf({ listen: { database, channel }, round: async () => void rounds++ });
      loop.start();
      await until(() => rounds === 1);
      // The LISTEN connection opens beside the first round: notify until a round follows.
      await until(() => {
        void database.pool.query(`NOTIFY ${channel}`);
        return rounds >= 2;
      });
      await loop.stop();
      // stop() closed the LISTEN connection (the server sees its backend go shortly after).
      let listening = -1;
      await until(() => {
        void database.pool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = 'LISTEN ${channel}'`).then((r) => (listening = r.rows[0].n));
        return listening === 0;
      });
    } finally {
      await database.close();
    }
  });

  it('falls back to the tick when LISTEN fails, and says so', async () => {
    database = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: tmpdir(), poolSize: 2 });
    try {
      const { lines, log } = recordingLog();
      let rounds = 0;
      const loop = loopOf({ log, tickMs: 10, listen: { database, channel: 'not a channel' }, round: async () => void rounds++ });
      loop.start();
      await until(() => lines.length > 0 && rounds >= 3);
      expect(lines[0]).toMatchObject({ level: 40, msg: 'test: LISTEN unavailable, relying on the tick' });
    } finally {
      await database.close();
    }
  });
});
