import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MessagePage, MessageStatus } from 'twilio/lib/rest/api/v2010/account/message.js';
import { API_VERSION, E164, newSid, rfc2822, twilioError, twilioSign } from './twilio-types.ts';

/**
 * A fake Twilio Messaging on 127.0.0.1: POST /2010-04-01/Accounts/{sid}/Messages.json (Basic
 * auth, form parameters, Twilio's JSON errors), with the refusals a real account meets (a
 * landline 21614, an unsubscribed recipient 21610, WhatsApp free text outside the 24-hour
 * window 63016, 20429 rate limits), answers that are lost after the message was created, and
 * signed requests to the app: status callbacks to a message's StatusCallback and inbound
 * messages to a number's webhook, signed with the twilio package's own function.
 */

/** The SDK's MessageResource (not exported by name) as it is on the wire: dates as RFC 2822 strings. */
type SdkMessageResource = Parameters<MessagePage['getInstance']>[0];
type Dates = 'date_created' | 'date_updated' | 'date_sent';
export type MessageResource = { [K in Exclude<keyof SdkMessageResource, Dates | 'error_code' | 'price'>]: SdkMessageResource[K] }
  & { [K in Dates]: string | null } & { error_code: number | null; price: string | null };

/** What Twilio posts to a StatusCallback (https://www.twilio.com/docs/messaging/guides/outbound-message-status-in-status-callbacks). */
export interface StatusCallbackParams {
  MessageSid: string;
  SmsSid: string;
  AccountSid: string;
  From: string;
  To: string;
  MessageStatus: MessageStatus;
  SmsStatus: MessageStatus;
  ApiVersion: string;
  ErrorCode?: string;
  ErrorMessage?: string;
}

/** What Twilio posts to a number's "A message comes in" webhook (https://www.twilio.com/docs/messaging/guides/webhook-request). */
export interface InboundMessageParams {
  MessageSid: string;
  SmsSid: string;
  SmsMessageSid: string;
  AccountSid: string;
  MessagingServiceSid?: string;
  From: string;
  To: string;
  Body: string;
  NumMedia: string;
  NumSegments: string;
  SmsStatus: 'received';
  ApiVersion: string;
  /** Advanced Opt-Out's reading of the message: STOP, START or HELP. */
  OptOutType?: 'STOP' | 'START' | 'HELP';
}

export interface FakeTwilioMessagesOptions {
  accountSid: string;
  authToken: string;
  /** Numbers that are landlines: 21614. */
  landlines?: string[];
  /** Numbers that replied STOP to the sender at the carrier: 21610. */
  unsubscribed?: string[];
  /** WhatsApp numbers outside their 24-hour session: free text is 63016, a template (ContentSid) goes. */
  outsideWindow?: string[];
}

export interface FakeMessage {
  params: Record<string, string>;
  resource: MessageResource;
}

export interface FakeTwilioMessages {
  url: string;
  accountSid: string;
  authToken: string;
  /** Messages created (a lost answer's included). */
  messages: FakeMessage[];
  /** Every create request's form, refused ones included. */
  requests: Record<string, string>[];
  /** The next `n` creates answer 429 with code 20429 and Retry-After. */
  rateLimitNext(n: number, retryAfterSec?: number): void;
  /** The next `n` creates make the message, then the connection drops before any answer. */
  loseNextAnswers(n: number): void;
  /** The next `n` creates answer 500 (the message made or not: Twilio does not say). */
  failNext(n: number): void;
  /** Answers every create `ms` late, the message already made (sends stay in flight meanwhile). */
  delayAnswers(ms: number): void;
  /** Posts the statuses in order to the message's StatusCallback, signed; answers the app's HTTP statuses. */
  report(sid: string, statuses: MessageStatus[], options?: { errorCode?: string; signWith?: string }): Promise<(number | null)[]>;
  /** Posts an inbound message to `url`, signed (with `signWith` to forge it). */
  sendInbound(url: string, input: { from: string; to: string; body: string; optOutType?: 'STOP' | 'START' | 'HELP'; signWith?: string; sid?: string }): Promise<{ status: number | null; body: string; contentType: string | null }>;
  close(): Promise<void>;
}

type Answer = { status: number; body: unknown; headers?: Record<string, string> } | { drop: true };

export async function startFakeTwilioMessages(options: FakeTwilioMessagesOptions): Promise<FakeTwilioMessages> {
  const { accountSid, authToken } = options;
  const landlines = new Set(options.landlines ?? []);
  const unsubscribed = new Set(options.unsubscribed ?? []);
  const outsideWindow = new Set(options.outsideWindow ?? []);
  const base = `/${API_VERSION}/Accounts/${accountSid}`;
  let rateLimited = 0;
  let retryAfter = 2;
  let lose = 0;
  let fail = 0;
  let delayMs = 0;

  const fake: FakeTwilioMessages = {
    url: '', accountSid, authToken, messages: [], requests: [],
    rateLimitNext: (n, sec = 2) => { rateLimited = n; retryAfter = sec; },
    loseNextAnswers: (n) => { lose = n; },
    failNext: (n) => { fail = n; },
    delayAnswers: (ms) => { delayMs = ms; },
    async report(sid, statuses, opts = {}) {
      const message = fake.messages.find((m) => m.resource.sid === sid);
      if (!message?.params.StatusCallback) throw new Error(`fake Twilio: no message ${sid} with a StatusCallback`);
      const answers: (number | null)[] = [];
      for (const status of statuses) {
        const failed = status === 'undelivered' || status === 'failed';
        const params: StatusCallbackParams = {
          MessageSid: sid, SmsSid: sid, AccountSid: accountSid, From: message.resource.from, To: message.resource.to, MessageStatus: status, SmsStatus: status, ApiVersion: API_VERSION,
          ...(failed && opts.errorCode ? { ErrorCode: opts.errorCode } : {}),
        };
        message.resource.status = status;
        answers.push((await post(message.params.StatusCallback, params, opts.signWith ?? authToken)).status);
      }
      return answers;
    },
    async sendInbound(url, input) {
      const sid = input.sid ?? newSid('SM');
      const params: InboundMessageParams = {
        MessageSid: sid, SmsSid: sid, SmsMessageSid: sid, AccountSid: accountSid, From: input.from, To: input.to, Body: input.body,
        NumMedia: '0', NumSegments: '1', SmsStatus: 'received', ApiVersion: API_VERSION, ...(input.optOutType ? { OptOutType: input.optOutType } : {}),
      };
      return post(url, params, input.signWith ?? authToken);
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };

  /** One signed form POST, as Twilio makes it (no retries here: a test asserts each answer). */
  async function post(url: string, params: object, token: string) {
    const form = params as Record<string, string>;
    try {
      const res = await fetch(url, {
        method: 'POST', redirect: 'manual',
        headers: { 'user-agent': 'TwilioProxy/1.1', 'x-twilio-signature': twilioSign(token, url, form), 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: new URLSearchParams(form).toString(), signal: AbortSignal.timeout(10_000),
      });
      return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') };
    } catch {
      return { status: null, body: '', contentType: null };
    }
  }

  function createMessage(params: Record<string, string>): Answer {
    fake.requests.push(params);
    const bad = (code: number, message: string) => ({ status: 400, body: twilioError(400, code, message) });
    if (rateLimited > 0) {
      rateLimited--;
      return { status: 429, body: twilioError(429, 20429, 'Too Many Requests'), headers: { 'retry-after': String(retryAfter) } };
    }
    if (fail > 0) {
      fail--;
      return { status: 500, body: twilioError(500, 20500, 'Internal Server Error') };
    }
    const to = params.To ?? '';
    const whatsapp = to.startsWith('whatsapp:');
    const number = to.replace(/^whatsapp:/, '');
    if (!to) return bad(21604, "A 'To' phone number is required.");
    if (!params.From && !params.MessagingServiceSid) return bad(21603, "A 'From' phone number is required.");
    if (!params.Body && !params.ContentSid) return bad(21602, 'Message body is required.');
    if (!E164.test(number)) return bad(21211, `Invalid 'To' Phone Number: ${to}`);
    if (params.From && whatsapp !== params.From.startsWith('whatsapp:')) return bad(21910, 'Invalid From and To pair. From and To should be of the same channel');
    if (!whatsapp && landlines.has(number)) return bad(21614, `'To' number ${number} is not a valid mobile number`);
    if (unsubscribed.has(number)) return bad(21610, 'Attempt to send to unsubscribed recipient');
    if (whatsapp && outsideWindow.has(number) && !params.ContentSid) {
      return bad(63016, 'Failed to send freeform message because you are outside the allowed window. If you want to send messages outside this window, please use a Template.');
    }
    const sid = newSid('SM');
    const now = rfc2822(Date.now());
    const resource: MessageResource = {
      sid, account_sid: accountSid, api_version: API_VERSION, body: params.Body ?? '', date_created: now, date_updated: now, date_sent: null,
      direction: 'outbound-api', error_code: null, error_message: null as unknown as string, from: params.From ?? '', to, messaging_service_sid: params.MessagingServiceSid ?? null as unknown as string,
      num_media: '0', num_segments: '1', price: null, price_unit: 'USD', status: params.MessagingServiceSid ? 'accepted' : 'queued',
      uri: `${base}/Messages/${sid}.json`, subresource_uris: { media: `${base}/Messages/${sid}/Media.json` },
    };
    fake.messages.push({ params, resource });
    if (lose > 0) {
      lose--;
      return { drop: true };
    }
    return { status: 201, body: resource };
  }

  function route(req: IncomingMessage, raw: string): Answer {
    const url = new URL(req.url ?? '/', 'http://fake');
    const [user, pass] = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString().split(':');
    if (user !== accountSid || pass !== authToken) return { status: 401, body: twilioError(401, 20003, 'Authenticate') };
    if (url.pathname === `${base}/Messages.json` && req.method === 'POST') {
      return createMessage(Object.fromEntries(new URLSearchParams(String(req.headers['content-type']).includes('x-www-form-urlencoded') ? raw : '')));
    }
    return { status: 404, body: twilioError(404, 20404, `The requested resource ${url.pathname} was not found`) };
  }

  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = route(req, Buffer.concat(chunks).toString('utf8'));
      if ('drop' in answer) return void req.socket.destroy();
      const write = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'twilio-request-id': newSid('RQ'), ...answer.headers });
        res.end(JSON.stringify(answer.body));
      };
      if (delayMs > 0) setTimeout(write, delayMs);
      else write();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
