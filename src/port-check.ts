import { createServer } from 'node:net';

/**
 * Listens on the port for a moment and lets it go, so `serve` finds a port already in use
 * before it creates a data directory or starts a database (that takes seconds on a first
 * start). Throws the listen error itself (EADDRINUSE, EACCES, EADDRNOTAVAIL), which
 * startupProblem words. The port can still be taken between this check and the real listen;
 * that listen reports it the same way, only later. Port 0 (any free port) is not checked.
 */
export async function checkPortFree(port: number, host: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}
