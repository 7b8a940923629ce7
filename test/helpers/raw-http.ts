import { connect } from 'node:net';

export interface RawAnswer {
  /** The status line's code, or null when the server closed without answering. */
  status: number | null;
  /** The whole answer as text (head and body). */
  text: string;
  /** From the first byte written to the answer's first byte. */
  ms: number;
}

/**
 * One HTTP/1.1 POST written to a plain socket, the body in one write (`connection: close`: the server ends the exchange), as an attacker sends it:
 * unlike fetch, it reads the server's answer even when the server refuses the body and closes the
 * connection before reading it (which makes a client's write fail).
 */
export function rawPost(port: number, path: string, headers: Record<string, string>, body: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const started = performance.now();
    let firstByteMs: number | null = null;
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => {
      firstByteMs ??= performance.now() - started;
      chunks.push(chunk);
    });
    socket.on('error', () => {}); // EPIPE / ECONNRESET once the server has answered and closed
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : null, text, ms: firstByteMs ?? performance.now() - started });
    });
    const head = Object.entries({ host: `127.0.0.1:${port}`, 'content-length': String(Buffer.byteLength(body)), connection: 'close', ...headers })
      .map(([k, v]) => `${k}: ${v}\r\n`).join('');
    // No half-close after the body: Node's server would drop a request still being handled.
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
    socket.write(body);
  });
}

/** Polls GET /healthz every `everyMs` until stopped; answers the slowest answer's time. */
export function watchHealth(baseUrl: string, everyMs = 10): { stop(): Promise<{ slowestMs: number; answers: number }> } {
  let stopped = false;
  let slowestMs = 0;
  let answers = 0;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const res = await fetch(`${baseUrl}/healthz`);
      await res.text();
      if (res.ok) answers++;
      slowestMs = Math.max(slowestMs, performance.now() - started);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return { slowestMs, answers };
    },
  };
}
