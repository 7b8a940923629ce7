import { createHmac } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { keepStart } from '../../http/json-body.ts';
import { ssrfReasonOf } from '../../shared/ssrf-guard.ts';
import { exchange, type ExchangeAnswer } from './http-exchange.ts';

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
  /** The runtime's cache of decoded signing secrets. */
  signingKeys: SigningKeys;
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

/**
 * Decoded signing keys by secret: the secret of an integration is the same for all its sends.
 * Keys derived from secrets, so each runtime (the worker's, the app's) holds its own cache.
 */
export interface SigningKeys {
  of(secret: string): Buffer;
}

export function createSigningKeys(): SigningKeys {
  const keys = new Map<string, Buffer>();
  return {
    of(secret) {
      let key = keys.get(secret);
      if (!key) {
        // Bounded: secrets change only when integrations are created or rotated.
        if (keys.size >= 1000) keys.clear();
        key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
        keys.set(secret, key);
      }
      return key;
    },
  };
}

/** Standard Webhooks signature: "v1," + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}` with the decoded secret. */
export function signature(key: Buffer, webhookId: string, timestamp: number, body: string): string {
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

/** The API's success rule: a JSON answer with a field named error or errors is a failure. */
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

function headersFor(req: SendRequest, body: string): Record<string, string> {
  const headers: Record<string, string> = {
    'user-agent': 'voice-campaigns-webhooks/0.1',
    'webhook-id': req.webhookId,
    'webhook-timestamp': String(req.timestamp),
    'webhook-signature': signature(req.signingKeys.of(req.signingSecret), req.webhookId, req.timestamp, body),
    ...authHeaders(req.auth),
  };
  if (!req.urlParams) headers['content-type'] = 'application/json';
  return headers;
}

/** The API's success rules on a complete answer: 2xx, no redirect, no JSON error field. */
function judge(status: number, headers: ExchangeAnswer['headers'], text: string): { ok: boolean; reason: string | null } {
  if (status >= 300 && status < 400) {
    const location = headers.location;
    return { ok: false, reason: `redirect (HTTP ${status}${location ? ` to ${String(location)}` : ''}) not followed` };
  }
  if (status < 200 || status >= 300) return { ok: false, reason: `receiver answered HTTP ${status}` };
  const field = errorField(text, String(headers['content-type'] ?? ''));
  if (field) return { ok: false, reason: `receiver answered with a JSON field named ${field}` };
  return { ok: true, reason: null };
}

function failureReason(error: unknown, timeoutMs: number): string {
  const ssrf = ssrfReasonOf(error);
  if (ssrf) return ssrf;
  const code = (error as { code?: string }).code ?? '';
  const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
  return timedOut ? `no answer within ${timeoutMs / 1000} s (timeout)` : `request failed: ${(error as Error).message}`;
}

export async function sendWebhook(req: SendRequest): Promise<SendResult> {
  const requestUrl = req.urlParams ? withQueryParams(req.url, req.payload) : req.url;
  const body = req.urlParams ? '' : JSON.stringify(req.payload);
  const headers = headersFor(req, body);
  const started = performance.now();
  try {
    const res = await exchange({
      url: new URL(requestUrl),
      method: req.method,
      headers,
      body: req.urlParams ? null : body,
      timeoutMs: req.timeoutMs,
      maxRead: MAX_READ,
      dispatcher: req.dispatcher,
    });
    // NUL cannot be stored in PostgreSQL text.
    const text = res.text.includes('\u0000') ? res.text.replace(/\u0000/g, '') : res.text;
    const responseBody = keepStart(text, RESPONSE_KEEP);
    const { ok, reason } = judge(res.statusCode, res.headers, text);
    return { ok, reason, requestUrl, httpStatus: res.statusCode, durationMs: Math.round(performance.now() - started), responseBody };
  } catch (error) {
    return { ok: false, reason: failureReason(error, req.timeoutMs), requestUrl, httpStatus: null, durationMs: Math.round(performance.now() - started), responseBody: null };
  }
}
