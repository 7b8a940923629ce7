import type { CallAssistant } from '../../provider.ts';
import type { TwilioCallUrls } from './twilio-urls.ts';

/**
 * The TwiML this service answers Twilio with. Every value is escaped for an XML attribute or
 * text: a greeting with quotes or angle brackets stays a greeting.
 */
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
const response = (body: string) => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

/**
 * The call handed to ConversationRelay: Twilio speaks the welcome greeting (the assistant's first
 * message) and then relays the caller's speech as text to our socket. `interruptible="any"`: the
 * caller may cut the assistant off, as a person would.
 */
export function relayTwiml(urls: TwilioCallUrls, assistant: CallAssistant | null | undefined, greeting = assistant?.firstMessage): string {
  const attributes: [string, string | null | undefined][] = [
    ['url', urls.relay],
    ['welcomeGreeting', greeting],
    ['voice', assistant?.voice],
    ['language', assistant?.language],
    ['interruptible', 'any'],
    ['dtmfDetection', 'true'],
  ];
  const relay = attributes.filter(([, v]) => v).map(([k, v]) => `${k}="${escapeXml(v!)}"`).join(' ');
  return response(`<Connect action="${escapeXml(urls.action)}"><ConversationRelay ${relay}/></Connect>`);
}

export const dialTwiml = (number: string) => response(`<Dial>${escapeXml(number)}</Dial>`);
export const hangupTwiml = () => response('<Hangup/>');
export const sayTwiml = (message: string) => response(`<Say>${escapeXml(message)}</Say><Hangup/>`);
/** A call nobody here answers (no inbound campaign for the number, the caller already on a call). */
export const rejectTwiml = () => response('<Reject reason="busy"/>');
