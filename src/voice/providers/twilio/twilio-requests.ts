import type { CallListInstanceCreateOptions } from 'twilio/lib/rest/api/v2010/account/call.js';
import type { StartCallRequest } from '../../provider.ts';
import type { TwilioCallUrls } from './twilio-urls.ts';

/**
 * The form Twilio's Calls API takes: its parameters are the SDK's create options with a capital
 * first letter (to → To, statusCallbackEvent → StatusCallbackEvent), so the SDK's types name
 * every one we send; a misspelt parameter fails the type check.
 */
export type TwilioCreateCallForm = { [K in keyof CallListInstanceCreateOptions as Capitalize<K & string>]?: string | string[] };

/** Twilio's own ceiling on a call (TimeLimit) when the assistant sets none: 10 minutes, as for Vapi. */
export const TWILIO_DEFAULT_MAX_DURATION_SEC = 600;

export function buildCreateCall(req: StartCallRequest, from: string, urls: TwilioCallUrls): URLSearchParams {
  const assistant = req.assistant ?? null;
  const form: TwilioCreateCallForm = {
    // Through the customer's trunk: Twilio dials the SIP URI (the contact's number in its user
    // part) and answers the trunk's digest challenge with the trunk's credentials.
    To: req.sip ? twilioSipTo(req.sip.uri) : req.to,
    ...(req.sip?.username && req.sip.password ? { SipAuthUsername: req.sip.username, SipAuthPassword: req.sip.password } : {}),
    From: from,
    Url: urls.twiml,
    Method: 'POST',
    StatusCallback: urls.events,
    StatusCallbackMethod: 'POST',
    StatusCallbackEvent: ['initiated', 'ringing', 'answered', 'completed'],
    // Recorded from the start only where the rule allows it; otherwise our agent starts the
    // recording at the disclosure or the consent (TwilioProvider.startRecording).
    ...(!req.recording || req.recording.rule === 'always'
      ? { Record: 'true', RecordingStatusCallback: urls.events, RecordingStatusCallbackMethod: 'POST', RecordingStatusCallbackEvent: ['completed'] }
      : {}),
    // Answering machines: asynchronous detection, so the conversation starts at once and a machine
    // is dealt with when Twilio tells (see the amd route). Leaving a message needs the beep.
    MachineDetection: assistant?.voicemail.action === 'leave_message' ? 'DetectMessageEnd' : 'Enable',
    AsyncAmd: 'true',
    AsyncAmdStatusCallback: urls.amd,
    AsyncAmdStatusCallbackMethod: 'POST',
    TimeLimit: String(assistant?.maxDurationSec ?? TWILIO_DEFAULT_MAX_DURATION_SEC),
  };
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, v as string);
  }
  return params;
}

/**
 * Twilio dials sip: URIs only and takes TLS as `;transport=tls`: a sips: route becomes the same
 * address with that parameter (what sips: means for the first hop).
 */
export function twilioSipTo(uri: string): string {
  if (!/^sips:/i.test(uri)) return uri;
  const plain = `sip:${uri.slice(5)}`;
  return /;transport=/i.test(plain) ? plain.replace(/;transport=[a-z]+/i, ';transport=tls') : `${plain};transport=tls`;
}
