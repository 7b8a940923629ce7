import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver on 127.0.0.1: a real HTTP server that records every request the service
 * sends it and answers what the test decides (status, body, headers, delay).
 */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Decides the answer per request; default 200 {"ok":true}. */
  respond: (req: ReceivedRequest) => { status?: number; body?: string; headers?: Record<string, string>; delayMs?: number };
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests: [],
    respond: () => ({}),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.requests.push(received);
      const answer = receiver.respond(received);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body ?? '{"ok":true}');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}
