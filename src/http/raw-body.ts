import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, unprocessable } from './errors.ts';
import { unstorable } from './json-body.ts';

/**
 * What a vendor's request may weigh, checked before anything is parsed or any signature is
 * computed: an unauthenticated request pays at most this much of the server's time.
 * - Forms are Twilio's callbacks: a few dozen parameters, a few KiB (status, recording, AMD,
 *   TwiML and relay-action requests; HandoffData is our own short JSON).
 * - JSON is Vapi's and Retell's events. The heaviest is an end-of-call report of the longest call
 *   an assistant may have (max_duration_seconds ≤ 7200): Retell's `call_ended`/`call_analyzed`
 *   carry the transcript three times (plain, `transcript_object` and `transcript_with_tool_calls`,
 *   both with word timings, ~45 bytes a word), about 2 MiB for two hours of speech; Vapi's
 *   end-of-call-report (messages, OpenAI-formatted messages, transcript) less. 4 MiB leaves room.
 */
export interface VendorBodyLimits {
  formBytes: number;
  formParameters: number;
  jsonBytes: number;
}
export const VENDOR_BODY_LIMITS: VendorBodyLimits = { formBytes: 64 * 1024, formParameters: 200, jsonBytes: 4 * 1024 * 1024 };
/** Twilio's own entry points take forms only; JSON there is as small as a form. */
export const TWILIO_BODY_LIMITS: VendorBodyLimits = { ...VENDOR_BODY_LIMITS, jsonBytes: VENDOR_BODY_LIMITS.formBytes };

/** The number of `&`-separated fields of a form, counting no further than `max + 1`. */
export function formFieldCount(body: string, max: number): number {
  if (body.length === 0) return 0;
  let count = 1;
  for (let at = body.indexOf('&'); at !== -1 && count <= max; at = body.indexOf('&', at + 1)) count++;
  return count;
}

/**
 * Keeps the exact bytes of JSON and form bodies in a plugin whose requests are signed over them
 * (voice vendors' webhooks), replacing, in that plugin only, the app's parsers, with the limits
 * above: a larger body is a 413 before it is read (Content-Length) or as soon as it passes the
 * limit, and the connection is closed; a form with more parameters is a 413 before it is parsed.
 * Returns the request's raw body ('' when it had none).
 */
export function keepRawBodies(app: FastifyInstance, limits: VendorBodyLimits = VENDOR_BODY_LIMITS): (request: FastifyRequest) => string {
  const rawBodies = new WeakMap<object, string>();
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limits.jsonBytes }, (req, body, done) => {
    rawBodies.set(req, body as string);
    let parsed: unknown = {};
    try {
      parsed = (body as string).length ? JSON.parse(body as string) : {};
    } catch {
      return done(null, {});
    }
    // The same limits as every JSON body (NUL, lone surrogates, 64 levels): no vendor event comes near them.
    const bad = unstorable(parsed);
    done(bad ? unprocessable(['body', ...bad.loc], bad.msg) : null, bad ? undefined : parsed);
  });
  // Twilio posts forms and signs their parameters.
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: limits.formBytes }, (req, body, done) => {
    if (formFieldCount(body as string, limits.formParameters) > limits.formParameters) {
      return done(new HttpError(413, `A form may hold at most ${limits.formParameters} parameters (Twilio sends a few dozen)`), undefined);
    }
    rawBodies.set(req, body as string);
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  return (request) => rawBodies.get(request) ?? '';
}
