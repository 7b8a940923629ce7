import { lstatSync, rmSync } from 'node:fs';
import { connect } from 'node:net';

/**
 * A start-up failure of the embedded database, said in one line a person can act on
 * (the CLI prints the message alone, without a stack trace).
 */
export class EmbeddedDatabaseError extends Error {}

/** Whether a process accepts connections on the unix socket at `path` (it answers within `timeoutMs`). */
function socketAnswers(path: string, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path });
    const done = (answer: boolean | Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (answer instanceof Error) reject(answer);
      else resolve(answer);
    };
    // A listener whose backlog is full neither accepts nor refuses: treat it as alive.
    const timer = setTimeout(() => done(true), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') done(false);
      else done(new EmbeddedDatabaseError(`Cannot check the database socket ${path}: ${error.message}`));
    });
  });
}

/**
 * A process killed without warning (SIGKILL, the OOM killer, power loss) leaves its socket file
 * behind, and listening on it again fails with EADDRINUSE. The caller holds the data directory's
 * lock, so no live owner is behind the file; it is removed only after checking that no process
 * answers on it (a data directory shared with another machine or container whose pids we cannot see).
 */
export async function removeStaleSocket(path: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new EmbeddedDatabaseError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  if (!isSocket) throw new EmbeddedDatabaseError(`${path} is not a socket: move that file away (the embedded database serves its socket there) and start again`);
  if (await socketAnswers(path)) {
    throw new EmbeddedDatabaseError(
      `The data directory's database socket ${path} is in use by another process, though its lockfile names no running process ` +
        '(another machine or container on the same directory?). Only one process may own the embedded database: stop that process, or use another DATA_DIR.',
    );
  }
  rmSync(path, { force: true });
}
