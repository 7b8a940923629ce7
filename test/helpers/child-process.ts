import type { ChildProcess } from 'node:child_process';

/** Sends `signal` and resolves when the process has exited (at once when it already had). */
export const stopProcess = (child: ChildProcess, signal: NodeJS.Signals) => new Promise<void>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) return resolve();
  child.once('exit', () => resolve());
  child.kill(signal);
});

/** Polls `check` every 100 ms until it answers something other than false; fails naming `what` after `timeoutMs`. */
export async function waitUntil<T>(what: string, check: () => Promise<T | false>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
