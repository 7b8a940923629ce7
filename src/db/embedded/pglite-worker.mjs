// Runs the embedded PGlite database on its own thread and serves it over the
// PostgreSQL wire protocol, so queries never run on the HTTP event loop and the
// application reaches both databases through the same `pg` driver.
// Plain JavaScript on purpose: a worker thread must load without a TS loader.
import { parentPort, workerData } from 'node:worker_threads';
import { chmod } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { SessionQueue } from './session-queue.mjs';

const { dataDir, socketPath, host, port, maxConnections } = workerData;

let db;
let server;
try {
  db = await PGlite.create({ dataDir, extensions: { pg_trgm } });
  server = new PGLiteSocketServer(
    socketPath ? { db, path: socketPath, maxConnections } : { db, host, port, maxConnections },
  );
  // Replace the server's per-message queue (handed to every connection it accepts) with
  // one that never interleaves two connections' query sequences: see session-queue.mjs.
  server.queryQueue = new SessionQueue(db);
  await server.start();
  if (socketPath) await chmod(socketPath, 0o600);
  const address = server.server?.address?.();
  parentPort.postMessage({ type: 'ready', port: typeof address === 'object' && address ? address.port : port });
} catch (error) {
  // The message alone: the parent says it in one line (the stack is the library's, not the user's).
  parentPort.postMessage({ type: 'error', message: String(error?.message ?? error) });
}

parentPort.on('message', async (message) => {
  if (message?.type !== 'stop') return;
  try {
    await server?.stop();
    await db?.close();
  } finally {
    parentPort.postMessage({ type: 'stopped' });
  }
});
