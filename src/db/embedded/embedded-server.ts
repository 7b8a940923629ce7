import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { acquireDataDirLock, type LockInfo } from './data-dir-lock.ts';

export interface EmbeddedServer extends Omit<LockInfo, 'pid'> {
  stop(): Promise<void>;
}

// Unix socket paths are limited to ~107 bytes; deeper data directories fall back to loopback TCP.
const MAX_SOCKET_PATH = 100;

/**
 * Starts PGlite on a worker thread, serving the wire protocol on a socket inside
 * DATA_DIR (mode 0600), and takes the data directory lock for this process.
 */
export async function startEmbeddedServer(dataDir: string, maxConnections: number): Promise<EmbeddedServer> {
  const lock = acquireDataDirLock(dataDir);
  const pgDir = join(dataDir, 'pglite');
  mkdirSync(pgDir, { recursive: true });
  const socketPath = join(dataDir, '.s.PGSQL.5432');
  const useSocket = Buffer.byteLength(socketPath) <= MAX_SOCKET_PATH;
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir: pgDir, socketPath: useSocket ? socketPath : undefined, host: '127.0.0.1', port: 0, maxConnections },
  });
  try {
    const ready = await new Promise<{ type: string; port?: number; message?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`embedded database exited with code ${code}`)));
    });
    if (ready.type !== 'ready') throw new Error(`embedded database failed to start: ${ready.message}`);
    const address = useSocket ? { host: dataDir, port: 5432 } : { host: '127.0.0.1', port: ready.port ?? 0 };
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
          lock.release();
        })()),
    };
  } catch (error) {
    await worker.terminate();
    lock.release();
    throw error;
  }
}
