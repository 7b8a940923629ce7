import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, unprocessable } from './errors.ts';
import { MAX_JSON_DEPTH } from './json-body.ts';

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

const hexAt = (text: string, at: number) => (/^[0-9a-fA-F]{4}$/.test(text.slice(at, at + 4)) ? parseInt(text.slice(at, at + 4), 16) : -1);
const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * What PostgreSQL could not store of a JSON text, found in one pass without parsing it (the rules
 * of json-body.ts's `unstorable`: no NUL, no lone UTF-16 surrogate, at most MAX_JSON_DEPTH levels).
 * Only escapes can carry either character: the body was decoded from UTF-8, which turns a raw
 * surrogate into U+FFFD, and a raw control character is not valid JSON (the adapter's parse
 * refuses it). Answers the problem, or null. Whether the text is valid JSON is the parse's affair.
 */
export function unstorableJsonText(text: string): string | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x22) inString = false;
      else if (c === 0) return 'Text may not contain the NUL character (\\u0000)';
      else if (c === 0x5c) {
        if (text.charCodeAt(i + 1) !== 0x75) {
          i++; // \", \\, \n...: the escaped character is not the end of the string
          continue;
        }
        const code = hexAt(text, i + 2);
        if (code === 0) return 'Text may not contain the NUL character (\\u0000)';
        if (isLow(code)) return 'Text may not contain a lone UTF-16 surrogate';
        if (isHigh(code)) {
          if (text.charCodeAt(i + 6) !== 0x5c || text.charCodeAt(i + 7) !== 0x75 || !isLow(hexAt(text, i + 8))) return 'Text may not contain a lone UTF-16 surrogate';
          i += 6;
        }
        i += 5;
      }
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return `JSON may nest at most ${MAX_JSON_DEPTH} levels`;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return null;
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
  // Not parsed here: the adapter parses the raw body once its signature holds. Parsing and walking
  // a forged 4 MiB event first took over a second; this one pass over the text takes milliseconds.
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: limits.jsonBytes }, (req, body, done) => {
    rawBodies.set(req, body as string);
    const bad = unstorableJsonText(body as string);
    done(bad ? unprocessable(['body'], bad) : null, bad ? undefined : body);
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
