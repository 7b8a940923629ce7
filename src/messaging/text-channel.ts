import type { MessageStatus, TextChannelName } from '../db/tables/messaging.ts';

/**
 * The port every text vendor implements (the simulator, Twilio Messaging). The sender writes
 * the Message row first, then calls send() once; what send() answers decides the row:
 * - accepted: the vendor took it (its id is kept; status callbacks move it on);
 * - refused: the vendor answered that it will not send it (an error code, nothing went out);
 * - rate_limited: nothing went out, the attempt is given back and the text retried later;
 * - lost: the answer never came (timeout, reset): the text may or may not have gone, so it is
 *   never sent again; a status callback carrying our id adopts it, else the sweep fails it.
 */
export interface TextSend {
  /** Our messages.id: it rides in the status callback URL so a lost answer can be adopted. */
  messageId: number;
  channel: TextChannelName;
  /** E.164 (the vendor adds `whatsapp:` for WhatsApp). */
  to: string;
  from: string | null;
  body: string;
  /** Twilio Messaging Service (MG…) that picks the sender instead of `from`. */
  messagingServiceSid?: string | null;
  /** WhatsApp: the approved template (Content SID) to send instead of free text. */
  contentSid?: string | null;
  /**
   * The simulator only: how the simulated person answers (the contact's contact_data._sim.text_reply);
   * absent, the simulator draws one. Real vendors ignore it.
   */
  simReply?: SimTextReply | null;
}

export type SimTextReply = 'none' | 'question' | 'call_me' | 'stop' | 'interested' | 'landline';

export type TextSendResult =
  | { kind: 'accepted'; providerMessageId: string; status: 'queued' | 'sent' | 'delivered'; cost?: number | null }
  | { kind: 'refused'; code: string; message: string }
  | { kind: 'rate_limited'; code: string; message: string; retryAfterMs: number }
  | { kind: 'lost'; message: string };

/**
 * A text vendor on one route (the service's settings or one voice connection). It builds its own
 * status callback URL (our message id and its route ride in it) and verifies what comes back.
 */
export interface TextProvider {
  readonly name: 'sim' | 'twilio';
  send(input: TextSend): Promise<TextSendResult>;
}

/** An inbound text as every vendor hands it to the service (modules/messaging/inbound.ts). */
export interface InboundText {
  provider: 'sim' | 'twilio';
  /** The route that signed it: a voice connection's id, null for the service's own settings. */
  connectionId: number | null;
  channel: TextChannelName;
  /** E.164, without `whatsapp:`. */
  from: string;
  to: string;
  body: string;
  providerMessageId: string;
  /** The vendor's own opt-out reading (Twilio's OptOutType: STOP, START, HELP). */
  optOutType?: 'STOP' | 'START' | 'HELP' | null;
  /** The simulator knows which of our messages it answers; a real vendor does not say. */
  inReplyToMessageId?: number;
  at: Date;
}

/** Vendor error codes whose number can never take a text (a landline): not retried as a text. */
export const NOT_TEXTABLE_CODES = new Set(['21614', '21211', '21612']);
/** The recipient unsubscribed at the carrier (Twilio 21610): the number is suppressed for texts. */
export const UNSUBSCRIBED_CODE = '21610';
/** WhatsApp: outside the 24-hour session, free text is refused (Twilio 63016). */
export const WHATSAPP_WINDOW_CODE = '63016';

/** Plain words for the vendor error codes a person sees on a message. */
export const TEXT_ERROR_WORDS: Record<string, string> = {
  '21610': 'the recipient unsubscribed (replied STOP to this sender)',
  '21614': 'the number is not a mobile number (a landline cannot receive texts)',
  '21211': 'the number is not a valid phone number',
  '21612': 'this sender cannot text that number',
  '30003': 'the handset was unreachable (off or out of coverage)',
  '30004': 'the message was blocked by the recipient or the carrier',
  '30005': 'unknown destination: the number does not exist',
  '30006': 'landline or unreachable carrier',
  '30007': 'filtered by the carrier as spam',
  '30008': 'unknown delivery error from the carrier',
  '63016': 'outside WhatsApp\'s 24-hour window: only an approved template may be sent',
  '20429': 'too many requests: the vendor asked us to slow down',
};

export const textErrorWords = (code: string | null | undefined) => (code ? TEXT_ERROR_WORDS[code] ?? `vendor error ${code}` : null);

/** A delivery report of an outbound text (a vendor's status callback, the simulator's timer). */
export interface TextStatusReport {
  provider: string;
  /** The route that signed the report: a voice connection's id, null for the service's own settings. */
  connectionId: number | null;
  /** Our id from the callback URL, when the vendor echoes it. */
  messageId?: number | null;
  providerMessageId: string;
  status: Exclude<MessageStatus, 'sending' | 'received'>;
  errorCode?: string | null;
  errorMessage?: string | null;
  cost?: number | null;
  at: Date;
}
