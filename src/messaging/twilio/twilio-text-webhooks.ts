import type { InboundText, TextStatusReport } from '../text-channel.ts';
import { VENDORS } from '../../voice/vendors.ts';
import { channelOf } from './twilio-text-urls.ts';

/**
 * Twilio Messaging's requests to this service, read once their signature holds: a message's
 * status callback and an inbound message. Twilio's parameters are documented at
 * https://www.twilio.com/docs/messaging/guides/webhook-request (the SDK has no types for them).
 */

/** X-Twilio-Signature over the URL Twilio requested and the form (the voice adapter's own check). */
export const verifyTwilioTextSignature = (authToken: string, signature: string | string[] | undefined, url: string, form: URLSearchParams) =>
  VENDORS.twilio.agent.verifySignature(authToken, signature, url, form);

type ReportedStatus = TextStatusReport['status'];
/** Twilio's MessageStatus values as ours; receiving/received are inbound and not reports. */
const STATUSES: Record<string, ReportedStatus> = {
  accepted: 'queued', scheduled: 'queued', queued: 'queued', sending: 'queued', sent: 'sent',
  delivered: 'delivered', partially_delivered: 'delivered', read: 'read',
  undelivered: 'undelivered', failed: 'failed', canceled: 'failed',
};

/** A status callback as a delivery report, or null when it reports nothing we track. */
export function parseTwilioTextStatus(form: URLSearchParams, route: { connectionId: number | null; messageId: number }, at: Date): TextStatusReport | null {
  const sid = form.get('MessageSid') ?? form.get('SmsSid');
  const status = STATUSES[form.get('MessageStatus') ?? form.get('SmsStatus') ?? ''];
  if (!sid || !status) return null;
  const errorCode = form.get('ErrorCode') || null;
  const price = Math.abs(Number(form.get('Price') ?? NaN));
  return {
    provider: 'twilio', connectionId: route.connectionId, messageId: route.messageId, providerMessageId: sid.slice(0, 64), status,
    errorCode: errorCode?.slice(0, 16) ?? null, errorMessage: form.get('ErrorMessage')?.slice(0, 500) || null,
    cost: Number.isFinite(price) && form.get('Price') ? price : null, at,
  };
}

const OPT_OUT_TYPES = new Set(['STOP', 'START', 'HELP']);

/** An inbound message as the service's InboundText, or null when it lacks what threading needs. */
export function parseTwilioInboundText(form: URLSearchParams, connectionId: number | null, at: Date): InboundText | null {
  const sid = form.get('MessageSid') ?? form.get('SmsMessageSid');
  const from = form.get('From');
  const to = form.get('To');
  if (!sid || !from || !to) return null;
  const sender = channelOf(from);
  const optOut = (form.get('OptOutType') ?? '').toUpperCase();
  return {
    provider: 'twilio', connectionId, channel: sender.channel, from: sender.number, to: channelOf(to).number,
    // A text is at most 1,600 characters (10 segments); media-only messages have an empty body.
    body: (form.get('Body') ?? '').slice(0, 1600), providerMessageId: sid.slice(0, 64),
    optOutType: OPT_OUT_TYPES.has(optOut) ? (optOut as 'STOP' | 'START' | 'HELP') : null, at,
  };
}

/** Twilio's answer to an inbound message when the service replies later (the text sender): nothing now. */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';
