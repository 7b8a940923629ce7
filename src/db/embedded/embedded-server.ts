import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { acquireDataDirLock, type LockInfo } from './data-dir-lock.ts';
import { EmbeddedDatabaseError, removeStaleSocket } from './stale-socket.ts';
import { seedFromTemplate } from './template.ts';

export interface EmbeddedServer extends Omit<LockInfo, 'pid'> {
  stop(): Promise<void>;
}

// Unix socket paths are limited to ~107 bytes; a deeper data directory gets its socket in a
// private directory under the system's temp dir (mkdtemp: mode 0700). Loopback TCP, the last
// resort, would let any local user in: the embedded server checks no password.
const MAX_SOCKET_PATH = 100;
const SOCKET_NAME = '.s.PGSQL.5432';

function socketDirFor(dataDir: string): { dir: string; temporary: boolean } | null {
  if (Buffer.byteLength(join(dataDir, SOCKET_NAME)) <= MAX_SOCKET_PATH) return { dir: dataDir, temporary: false };
  const dir = mkdtempSync(join(tmpdir(), 'vc-pg-'));
  if (Buffer.byteLength(join(dir, SOCKET_NAME)) <= MAX_SOCKET_PATH) return { dir, temporary: true };
  rmSync(dir, { recursive: true, force: true });
  return null;
}

/** The embedded server's connection limit for a pool of `poolSize`: room for the CLI beside it. */
export const embeddedConnections = (poolSize: number) => poolSize + 4;

const firstLine = (message: string | undefined) => (message ?? 'no reason given').trim().split('\n')[0]!.replace(/^Error: /, '');

/**
 * Starts PGlite on a worker thread, serving the wire protocol on a socket inside
 * DATA_DIR (mode 0600) or a private temp directory, and takes the data directory lock for this process.
 */
export async function startEmbeddedServer(dataDir: string, maxConnections: number): Promise<EmbeddedServer> {
  const lock = acquireDataDirLock(dataDir);
  const pgDir = join(dataDir, 'pglite');
  // Under the lock, so no other process is creating it: a first start copies the initdb
  // template when there is one (template.ts) instead of running initdb on the worker.
  seedFromTemplate(pgDir);
  mkdirSync(pgDir, { recursive: true });
  const socketDir = socketDirFor(dataDir);
  const socketPath = socketDir ? join(socketDir.dir, SOCKET_NAME) : undefined;
  const removeSocketDir = () => {
    if (socketDir?.temporary) rmSync(socketDir.dir, { recursive: true, force: true });
  };
  try {
    if (socketPath) await removeStaleSocket(socketPath);
  } catch (error) {
    removeSocketDir();
    lock.release();
    throw error;
  }
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir: pgDir, socketPath, host: '127.0.0.1', port: 0, maxConnections },
  });
  try {
    const ready = await new Promise<{ type: string; port?: number; message?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', (error) => resolve({ type: 'error', message: error.message }));
      worker.once('exit', (code) => reject(new EmbeddedDatabaseError(`The embedded database in ${pgDir} stopped while starting (exit code ${code})`)));
    });
    if (ready.type !== 'ready') throw new EmbeddedDatabaseError(`The embedded database in ${pgDir} could not start: ${firstLine(ready.message)}`);
    const address = socketDir ? { host: socketDir.dir, port: 5432 } : { host: '127.0.0.1', port: ready.port ?? 0 };
    lock.publish(address);
    let stopped: Promise<void> | undefined;
    return {
      ...address,
      stop: () =>
        (stopped ??= (async () => {
          const done = new Promise((resolve) => worker.once('message', resolve));
          worker.postMessage({ type: 'stop' });
          await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 5000))]);
          await worker.terminate();
          removeSocketDir();
          lock.release();
        })()),
    };
  } catch (error) {
    await worker.terminate();
    removeSocketDir();
    lock.release();
    throw error;
  }
}
