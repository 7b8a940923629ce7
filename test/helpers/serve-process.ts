import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * `voice-campaigns serve` as a real process (the CLI a user runs), on the embedded database in
 * `dataDir` unless `env` names a DATABASE_URL. For tests and benchmarks that crash it, measure it
 * or run two of it.
 */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Sends the signal and waits for the process to end. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

const BIN = join(import.meta.dirname, '../../bin/voice-campaigns.mjs');

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export const ADMIN = { email: 'admin@example.com', password: 'first password' };

export function spawnServe(dataDir: string, env: Record<string, string> = {}, port = 0): ChildProcess {
  return spawn(process.execPath, [BIN, 'serve'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      FIRST_USER_EMAIL: ADMIN.email,
      FIRST_USER_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Starts serve and waits until /readyz answers (at most `timeoutMs`). */
export async function startServe(dataDir: string, env: Record<string, string> = {}, timeoutMs = 300_000): Promise<ServeProcess> {
  const port = await freePort();
  const child = spawnServe(dataDir, env, port);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${stderr}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { child, url, stderr: () => stderr, kill };
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  await kill('SIGKILL');
  throw new Error(`serve did not become ready within ${timeoutMs} ms: ${stderr}`);
}

/** The first superuser's bearer headers, signed in through the API. */
export async function signIn(url: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/v1/login/access-token`, { method: 'POST', body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }) });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const { access_token } = (await res.json()) as { access_token: string };
  return { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
}
