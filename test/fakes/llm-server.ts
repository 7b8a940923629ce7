import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A fake chat-completions server: `answer` returns the JSON object the model "extracts". */
export async function startFakeLlm(answer: (body: any) => { status?: number; content?: unknown; raw?: string }) {
  const seen: { headers: IncomingHttpHeaders; body: any; path: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      seen.push({ headers: req.headers, body, path: req.url ?? '' });
      const a = answer(body);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
      res.end(a.raw ?? JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(a.content) }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
