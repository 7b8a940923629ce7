import { createHmac } from 'node:crypto';
import { request, type Dispatcher } from 'undici';
import { ssrfReasonOf } from '../../shared/ssrf-guard.ts';

/**
 * One HTTP request per send: no redirects followed (a 3xx is a failure), a timeout
 * covering the whole exchange, the answer read up to MAX_READ and stored truncated.
 */
export const RESPONSE_KEEP = 4096;
const MAX_READ = 1024 * 1024;

export interface SendRequest {
  method: 'POST' | 'PUT';
  url: string;
  payload: Record<string, unknown>;
  urlParams: boolean;
  auth: { type: string; login: string | null; password: string | null; token: string | null; apiKey: string | null; apiKeyHeader: string };
  timeoutMs: number;
  signingSecret: string;
  webhookId: string;
  timestamp: number;
  dispatcher: Dispatcher;
}

export interface SendResult {
  ok: boolean;
  reason: string | null;
  requestUrl: string;
  httpStatus: number | null;
  durationMs: number;
  responseBody: string | null;
}

/** Standard Webhooks signature: "v1," + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}` with the decoded secret. */
export function signature(secret: string, webhookId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestamp}.${body}`).digest('base64')}`;
}

export function withQueryParams(url: string, payload: Record<string, unknown>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(payload)) {
    target.searchParams.append(key, value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return target.toString();
}

function authHeaders(auth: SendRequest['auth']): Record<string, string> {
  switch (auth.type) {
    case 'basic':
      return { authorization: `Basic ${Buffer.from(`${auth.login ?? ''}:${auth.password ?? ''}`).toString('base64')}` };
    case 'bearer':
      return { authorization: `Bearer ${auth.token ?? ''}` };
    case 'api_key':
      return { [auth.apiKeyHeader.toLowerCase()]: auth.apiKey ?? '' };
    default:
      return {};
  }
}

/** The spec's success rule: a JSON answer with a field named error or errors is a failure. */
function errorField(text: string, contentType: string): string | null {
  const trimmed = text.trim();
  if (!/json/i.test(contentType) && !trimmed.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(trimmed);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      if ('error' in parsed) return 'error';
      if ('errors' in parsed) return 'errors';
    }
  } catch {
    // not JSON after all: only the status decides
  }
  return null;
}

export async function sendWebhook(req: SendRequest): Promise<SendResult> {
  const requestUrl = req.urlParams ? withQueryParams(req.url, req.payload) : req.url;
  const body = req.urlParams ? '' : JSON.stringify(req.payload);
  const headers: Record<string, string> = {
    'user-agent': 'voice-campaigns-webhooks/0.1',
    'webhook-id': req.webhookId,
    'webhook-timestamp': String(req.timestamp),
    'webhook-signature': signature(req.signingSecret, req.webhookId, req.timestamp, body),
    ...authHeaders(req.auth),
  };
  if (!req.urlParams) headers['content-type'] = 'application/json';
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // undici's own timers bound the wait for the answer's headers and for each body chunk;
  // an AbortSignal per request measured at about half the send rate.
  try {
    const res = await request(requestUrl, {
      method: req.method,
      headers,
      body: req.urlParams ? null : body,
      dispatcher: req.dispatcher,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
    let raw: string;
    const length = Number(res.headers['content-length'] ?? NaN);
    if (Number.isFinite(length) && length <= MAX_READ) {
      raw = await res.body.text();
    } else {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        chunks.push(chunk as Buffer);
        size += (chunk as Buffer).length;
        if (size >= MAX_READ) {
          res.body.destroy();
          break;
        }
      }
      raw = Buffer.concat(chunks).toString('utf8');
    }
    // NUL cannot be stored in PostgreSQL text.
    const text = raw.replace(/\u0000/g, '');
    const responseBody = text.length > RESPONSE_KEEP ? text.slice(0, RESPONSE_KEEP) : text;
    const status = res.statusCode;
    const base = { requestUrl, httpStatus: status, durationMs: elapsed(), responseBody };
    if (status >= 300 && status < 400) {
      const location = res.headers.location;
      return { ...base, ok: false, reason: `redirect (HTTP ${status}${location ? ` to ${String(location)}` : ''}) not followed` };
    }
    if (status < 200 || status >= 300) return { ...base, ok: false, reason: `receiver answered HTTP ${status}` };
    const field = errorField(text, String(res.headers['content-type'] ?? ''));
    if (field) return { ...base, ok: false, reason: `receiver answered with a JSON field named ${field}` };
    return { ...base, ok: true, reason: null };
  } catch (error) {
    const ssrf = ssrfReasonOf(error);
    const code = (error as { code?: string }).code ?? '';
    const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
    const reason = ssrf ?? (timedOut ? `no answer within ${req.timeoutMs / 1000} s (timeout)` : `request failed: ${(error as Error).message}`);
    return { ok: false, reason, requestUrl, httpStatus: null, durationMs: elapsed(), responseBody: null };
  }
}
