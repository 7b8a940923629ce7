import { createHash } from 'node:crypto';
import type { Clock } from '../shared/clock.ts';
import type { InboundText, SimTextReply, TextProvider, TextSend, TextSendResult, TextStatusReport } from './text-channel.ts';

/**
 * The simulator's texts (the embedded default): every text is accepted, delivered a moment later
 * (SIM_TIME_SCALE applies), and the simulated person sometimes answers: a question, "call me
 * tomorrow", interest, or STOP; a number the contact marks as a landline is refused as Twilio
 * refuses it (21614). The answer is the contact's `_sim.text_reply` when set, else drawn from
 * (SIM_SEED, message id), so a run is repeatable.
 */
export interface SimTextOptions {
  clock: Clock;
  timeScale: number;
  seed: number;
  /** Delivery reports, as a vendor's status callback would bring them. */
  report(status: TextStatusReport): Promise<unknown>;
  /** The person's answer, as a vendor's inbound webhook would bring it. */
  receive(text: InboundText): Promise<unknown>;
  /** Errors of the two callbacks (they run after send() returned). */
  onError(error: unknown): void;
}

const DELIVERED_AFTER_SEC = 3;
const ANSWER_AFTER_SEC = 45;

export const SIM_REPLY_WORDS: Record<Exclude<SimTextReply, 'none' | 'landline'>, string> = {
  question: 'What is this about exactly? How much does it cost?',
  call_me: 'Please call me tomorrow morning',
  stop: 'STOP',
  interested: 'Yes, I am interested, tell me more',
};

// Shares of the drawn answers: most people do not answer a text.
const MIX: [SimTextReply, number][] = [['none', 0.7], ['question', 0.1], ['call_me', 0.08], ['interested', 0.07], ['stop', 0.05]];

export function drawSimReply(seed: number, messageId: number): SimTextReply {
  const h = createHash('sha256').update(`${seed}:text:${messageId}`).digest();
  let r = h.readUInt32BE(0) / 2 ** 32;
  for (const [kind, p] of MIX) if ((r -= p) < 0) return kind;
  return 'none';
}

export function createSimTextProvider(options: SimTextOptions): TextProvider {
  const later = (sec: number, run: () => Promise<unknown>) => {
    const timer = setTimeout(() => void run().catch(options.onError), (sec * 1000) / options.timeScale);
    timer.unref();
  };
  return {
    name: 'sim',
    async send(input: TextSend): Promise<TextSendResult> {
      const reply = input.simReply ?? drawSimReply(options.seed, input.messageId);
      if (reply === 'landline') return { kind: 'refused', code: '21614', message: `'To' number ${input.to} is not a valid mobile number` };
      const providerMessageId = `SMsim${String(input.messageId).padStart(30, '0')}`;
      later(DELIVERED_AFTER_SEC, () =>
        options.report({ provider: 'sim', connectionId: null, messageId: input.messageId, providerMessageId, status: 'delivered', at: options.clock.now() }),
      );
      if (reply !== 'none') {
        later(ANSWER_AFTER_SEC, () =>
          options.receive({
            provider: 'sim', connectionId: null, channel: input.channel, from: input.to, to: input.from ?? '',
            body: SIM_REPLY_WORDS[reply], providerMessageId: `SMsimin${input.messageId}`, at: options.clock.now(),
            optOutType: reply === 'stop' ? 'STOP' : null, inReplyToMessageId: input.messageId,
          }),
        );
      }
      return { kind: 'accepted', providerMessageId, status: 'queued', cost: 0.0079 };
    },
  };
}
