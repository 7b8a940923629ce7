import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import type { FuzzCase } from './fuzz-inputs.ts';

/**
 * Sending fuzz cases over real HTTP (node:http: the exact path bytes, headers and body, with a
 * correct content-length), and the error shape every 4xx must have (docs/api-conventions.md).
 */
export interface RawResponse { status: number; headers: IncomingHttpHeaders; body: string; error?: string }

export const keepAlive = () => new Agent({ keepAlive: true, maxSockets: 4 });

export function send(agent: Agent, port: number, c: FuzzCase, timeoutMs = 15_000): Promise<RawResponse> {
  const attempt = (retry: boolean): Promise<RawResponse> => new Promise((resolve) => {
    const headers = { ...c.headers, ...(c.body ? { 'content-length': String(c.body.length) } : {}) };
    let req: ReturnType<typeof request>;
    try {
      req = request({ host: '127.0.0.1', port, method: c.method, path: c.path, headers, agent, timeout: timeoutMs }, (res) => {
        // An event stream that opened has answered (it stays open by design): its head is the answer.
        if (res.statusCode === 200 && String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          res.destroy();
          return resolve({ status: 200, headers: res.headers, body: '' });
        }
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => resolve({ status: 0, headers: {}, body: '', error: e.message }));
      });
    } catch (e) {
      return resolve({ status: 0, headers: {}, body: '', error: `client refused to send: ${(e as Error).message}` });
    }
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', (e: NodeJS.ErrnoException) => {
      // A kept-alive socket the server closed after its previous answer: nothing reached the server, send again once.
      if (retry && req.reusedSocket && e.code === 'ECONNRESET') resolve(attempt(false));
      else resolve({ status: 0, headers: {}, body: '', error: e.message });
    });
    req.end(c.body);
  });
  return attempt(true);
}

const DETAIL_STRING = new Set([400, 401, 403, 404, 405, 409, 413, 414, 415, 429, 431]);
const LOC_ROOTS = new Set(['body', 'query', 'path', 'header']);

/** What is wrong with this answer to this case, if anything (writes are checked by the caller). */
export function problemsOf(c: FuzzCase, res: RawResponse): string[] {
  if (res.error) return [`no answer: ${res.error}`];
  if (res.status >= 500) return ['5xx'];
  if (res.status < 400) return c.mustReject ? [`accepted (${res.status}) although it must be refused`] : [];
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return [`${res.status} body is not JSON (content-type ${res.headers['content-type'] ?? 'none'})`];
  }
  const keys = body && typeof body === 'object' ? Object.keys(body) : [];
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (res.status === 422) {
    const ok = keys.length === 1 && Array.isArray(detail) && detail.length > 0 && detail.every((d: { loc?: unknown; msg?: unknown; type?: unknown }) =>
      Array.isArray(d?.loc) && LOC_ROOTS.has(d.loc[0]) && d.loc.every((l: unknown) => typeof l === 'string' || typeof l === 'number') && typeof d.msg === 'string' && typeof d.type === 'string');
    return ok ? [] : ['422 without {detail: [{loc: [body|query|path|header, ...], msg, type}]}'];
  }
  const shape = keys.length === 1 && typeof detail === 'string' ? [] : [`${res.status} without {detail: string}`];
  return DETAIL_STRING.has(res.status) ? shape : [`undocumented status ${res.status}${shape.length ? ' without {detail: string}' : ''}`];
}

/** At most n characters, with control characters and lone surrogates escaped so the line prints as it was sent. */
const excerpt = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length})` : s)
  .replace(/[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

export interface Finding { problem: string; c: FuzzCase; res: RawResponse }

/** One line per finding: enough to replay the request by hand. */
export function describeFinding({ problem, c, res }: Finding): string {
  const body = c.body ? ` ${c.headers['content-type'] ?? '(no content-type)'} ${excerpt(c.body.toString('utf8'), 80)}` : '';
  return `${problem} | ${c.method} ${c.path.length > 120 ? `${c.path.slice(0, 120)}…(${c.path.length})` : c.path} [${c.label}]${body} → ${res.status} ${excerpt(res.error ?? res.body, 160)}`;
}

/**
 * Findings of one operation, those of one cause (same problem, status and Fastify error code) on
 * one line: every input that failed, and one full request as an example.
 */
export function summarise(findings: Finding[]): string[] {
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = `${f.problem} ${f.res.status} ${/"code":"(\w+)"/.exec(f.res.body)?.[1] ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()].map((g) => (g.length === 1 ? describeFinding(g[0]!) : `×${g.length} [${g.map((f) => f.c.label).join('; ')}] e.g. ${describeFinding(g[0]!)}`));
}
