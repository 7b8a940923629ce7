import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * When the process now holding the pid started, in ms since the epoch (Linux: /proc), else null.
 * After a crash or a reboot the lock's pid may belong to an unrelated process; one that started
 * after the lock was written cannot be the process that wrote it.
 */
function processStartMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime, clock ticks since boot) counts from after the parenthesised command name.
    const startTicks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const bootSeconds = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    if (!Number.isFinite(startTicks) || !Number.isFinite(bootSeconds)) return null;
    return bootSeconds * 1000 + (startTicks / 100) * 1000; // USER_HZ is 100 on every Linux ABI Node supports
  } catch {
    return null;
  }
}

/** The lock's writer still runs: its pid is alive and that process is older than the lock file. */
function ownerRuns(info: LockInfo, lockWrittenMs: number): boolean {
  if (info.pid === process.pid || !isAlive(info.pid)) return false;
  const started = processStartMs(info.pid);
  // 2 s of slack: btime is whole seconds and clocks may be adjusted a little between boot and now.
  return started === null || started <= lockWrittenMs + 2000;
}

/** The live owner of the data directory, or null when it is free (a stale lock counts as free). */
export function readLockOwner(dataDir: string): LockInfo | null {
  try {
    const file = lockPath(dataDir);
    const info = JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
    return ownerRuns(info, statSync(file).mtimeMs) ? info : null;
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
