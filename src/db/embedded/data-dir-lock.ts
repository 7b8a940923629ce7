import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * PGlite has no lock of its own: two processes on one data directory silently lose
 * writes. The owning process writes its pid and the address of its embedded server
 * here; others either refuse to start or connect to that server instead.
 */
export interface LockInfo {
  pid: number;
  /** directory holding the unix socket `.s.PGSQL.<port>`, or a loopback host */
  host: string;
  port: number;
}

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly owner: LockInfo) {
    super(
      `The data directory ${dataDir} is in use by process ${owner.pid}. ` +
        'Only one process may own the embedded database: stop that process, use another DATA_DIR, ' +
        'or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
  }
}

const lockPath = (dataDir: string) => join(dataDir, 'embedded.lock');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live owner of the data directory, or null when it is free (a stale lock counts as free). */
export function readLockOwner(dataDir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(lockPath(dataDir), 'utf8')) as LockInfo;
    return info.pid !== process.pid && isAlive(info.pid) ? info : null;
  } catch {
    return null;
  }
}

/** Takes the lock or throws DataDirLockedError. `wx` makes creation atomic between racing processes. */
export function acquireDataDirLock(dataDir: string): { publish(info: Omit<LockInfo, 'pid'>): void; release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  const placeholder = JSON.stringify({ pid: process.pid, host: '', port: 0 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, placeholder, { flag: 'wx', mode: 0o600 });
      return {
        publish: (info) => writeFileSync(file, JSON.stringify({ pid: process.pid, ...info }), { mode: 0o600 }),
        release: () => rmSync(file, { force: true }),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readLockOwner(dataDir);
      if (owner) throw new DataDirLockedError(dataDir, owner);
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}
