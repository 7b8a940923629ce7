import { randomUUID } from 'node:crypto';
import type { FakeCallback, FakeTwilioCall } from './twilio-types.ts';
import { twilioSign } from './twilio-types.ts';

/** Attempts per request: Twilio retries a failed webhook a couple of times before it gives up. */
const ATTEMPTS = 3;
const RETRY_MS = [100, 300];

/**
 * One signed request from "Twilio" to the app, as Twilio makes it: form-encoded POST (or GET with
 * the parameters in the query), X-Twilio-Signature over the full URL and the POST parameters, the
 * same I-Twilio-Idempotency-Token on every retry. Each attempt is recorded on the call.
 */
export async function sendSigned(input: {
  call: FakeTwilioCall;
  authToken: string;
  kind: FakeCallback['kind'];
  url: string;
  method?: string;
  params: Record<string, string>;
}): Promise<{ status: number | null; body: string }> {
  const method = (input.method ?? 'POST').toUpperCase() === 'GET' ? 'GET' : 'POST';
  const form = new URLSearchParams(input.params).toString();
  let target = input.url;
  if (method === 'GET') target += (target.includes('?') ? '&' : '?') + form;
  const signature = twilioSign(input.authToken, target, method === 'GET' ? {} : input.params);
  const idempotency = `${input.call.sid}-${randomUUID()}`;
  let last: { status: number | null; body: string } = { status: null, body: '' };
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const res = await fetch(target, {
        method,
        redirect: 'manual',
        headers: {
          'user-agent': 'TwilioProxy/1.1',
          'x-twilio-signature': signature,
          'i-twilio-idempotency-token': idempotency,
          ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' } : {}),
        },
        ...(method === 'POST' ? { body: form } : {}),
        signal: AbortSignal.timeout(10_000),
      });
      last = { status: res.status, body: await res.text() };
    } catch {
      last = { status: null, body: '' };
    }
    input.call.callbacks.push({ kind: input.kind, url: target, method, params: input.params, status: last.status, attempt });
    if (last.status !== null && last.status >= 200 && last.status < 300) break;
    if (attempt < ATTEMPTS) await new Promise((r) => setTimeout(r, RETRY_MS[attempt - 1]));
  }
  return last;
}

/** A sleep that ends early when the signal aborts (a hangup or a new TwiML document). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => { clearTimeout(timer); signal?.removeEventListener('abort', done); resolve(); };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
