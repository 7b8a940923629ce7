import type { MessageListInstanceCreateOptions, MessageStatus as TwilioMessageStatus } from 'twilio/lib/rest/api/v2010/account/message.js';
import type { TextProvider, TextSend, TextSendResult } from '../text-channel.ts';
import { twilioTextUrls, withChannel } from './twilio-text-urls.ts';
import type { TwilioErrorBody } from '../../shared/twilio-error-body.ts';

/**
 * Texts through Twilio Messaging (SMS and WhatsApp) on one set of credentials: the service's
 * (TWILIO_ACCOUNT_SID/TWILIO_AUTH_TOKEN) or an account's Twilio voice connection. Plain fetch
 * with Basic auth and a timeout, as the voice adapter does, and no retries: the sender decides
 * (a rate_limited answer gives the attempt back; a lost one is never sent again). The base URL
 * is the service's setting (TWILIO_BASE_URL), never an account's, so no request goes where an
 * account says.
 */
export interface TwilioTextOptions {
  accountSid: string;
  authToken: string;
  baseUrl: string;
  /** Where Twilio posts the status callbacks; without it, texts go out without them. */
  publicBaseUrl: string | null;
  /** The voice connection whose credentials these are (null: the service's settings). */
  connectionId: number | null;
  timeoutMs?: number;
}

/** The form Messages.json takes: the SDK's create options with a capital first letter, so a misspelt parameter fails the type check. */
export type TwilioCreateMessageForm = { [K in keyof MessageListInstanceCreateOptions as Capitalize<K & string>]?: string };

/** The message resource as Twilio's JSON has it (the SDK's MessageResource is not exported). */
interface TwilioMessageJson {
  sid?: string;
  status?: TwilioMessageStatus;
  price?: string | null;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_RETRY_AFTER_MS = 1000;
/** Twilio could not be reached at all (the request never left): retried later, as a rate limit is. */
const UNREACHABLE_RETRY_MS = 30_000;
/** Connection errors that happen before a byte of the request is sent. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

export function buildCreateMessage(input: TextSend, statusCallback: string | null): URLSearchParams {
  const form: TwilioCreateMessageForm = { To: withChannel(input.channel, input.to) };
  // A Messaging Service picks the sender itself; giving From too would override it.
  if (input.messagingServiceSid) form.MessagingServiceSid = input.messagingServiceSid;
  else if (input.from) form.From = withChannel(input.channel, input.from);
  // WhatsApp outside the 24-hour window takes an approved template only (Twilio 63016 otherwise).
  if (input.channel === 'whatsapp' && input.contentSid) form.ContentSid = input.contentSid;
  else form.Body = input.body;
  if (statusCallback) form.StatusCallback = statusCallback;
  return new URLSearchParams(form as Record<string, string>);
}

export function createTwilioTextProvider(options: TwilioTextOptions): TextProvider {
  const { accountSid, authToken } = options;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
  return {
    name: 'twilio',
    async send(input: TextSend): Promise<TextSendResult> {
      if (!input.messagingServiceSid && !input.from) {
        return { kind: 'refused', code: 'no_sender', message: 'Twilio needs a number to text from: give the campaign a phone number or a Messaging Service, or set TWILIO_FROM_NUMBER (or the connection\'s from_number)' };
      }
      const callback = options.publicBaseUrl ? twilioTextUrls(options.publicBaseUrl, options.connectionId).status(input.messageId) : null;
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
            accept: 'application/json',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: buildCreateMessage(input, callback).toString(),
          signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        });
      } catch (error) {
        return unanswered(error);
      }
      let body: TwilioMessageJson & TwilioErrorBody;
      try {
        body = (await res.json()) as TwilioMessageJson & TwilioErrorBody;
      } catch (error) {
        // The status came but the body was cut (a reset): an accepted text may be behind it.
        if (res.ok || res.status >= 500) return { kind: 'lost', message: `Twilio ${res.status}: the answer was cut (${(error as Error).message})` };
        body = {};
      }
      return answerOf(res, body);
    },
  };
}

/** Twilio's answer to a create as the port's result (docs: https://www.twilio.com/docs/api/errors). */
function answerOf(res: Response, body: TwilioMessageJson & TwilioErrorBody): TextSendResult {
  const code = body.code === undefined ? null : String(body.code);
  const what = `Twilio ${res.status}${code ? ` (${code})` : ''}: ${body.message ?? res.statusText}`;
  if (res.ok && body.sid) return { kind: 'accepted', providerMessageId: body.sid, status: acceptedStatus(body.status), cost: priceOf(body.price) };
  if (res.status === 429 || code === '20429') {
    const retryAfter = Number(res.headers.get('retry-after'));
    return { kind: 'rate_limited', code: code ?? '20429', message: what, retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : DEFAULT_RETRY_AFTER_MS };
  }
  // A 5xx says nothing of whether the message was created: it may have gone.
  if (res.status >= 500) return { kind: 'lost', message: what };
  // A 2xx without a sid is not an answer we understand either.
  if (res.ok) return { kind: 'lost', message: `Twilio ${res.status}: an answer without a message sid` };
  return { kind: 'refused', code: code ?? `http_${res.status}`, message: what };
}

function unanswered(error: unknown): TextSendResult {
  const cause = (error as { cause?: { code?: string } }).cause;
  if (cause?.code && NOT_SENT.has(cause.code)) {
    return { kind: 'rate_limited', code: 'unreachable', message: `Twilio unreachable (${cause.code}): nothing was sent`, retryAfterMs: UNREACHABLE_RETRY_MS };
  }
  return { kind: 'lost', message: `Twilio did not answer: ${(error as Error).message}` };
}

function acceptedStatus(status: TwilioMessageStatus | undefined): 'queued' | 'sent' | 'delivered' {
  if (status === 'sent') return 'sent';
  if (status === 'delivered' || status === 'read') return 'delivered';
  return 'queued';
}

/** Twilio's price is negative (money spent); ours is the positive amount. Null until Twilio knows it. */
function priceOf(price: string | null | undefined): number | null {
  const n = price == null ? NaN : Math.abs(Number(price));
  return Number.isFinite(n) ? n : null;
}
