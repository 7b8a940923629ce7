import type { TranscriptTurn } from '../../voice/provider.ts';
import { DEFAULT_SYSTEM_PROMPT, type AgentBrain, type AgentToolCall } from './agent-brain.ts';
import { openingWords, type CallScript } from './call-script.ts';
import { consentGiven } from '../privacy/recording-consent/recording-rule.ts';
import type { ConversationUpdate } from './conversation-store.ts';

/**
 * One ConversationRelay session: Twilio's messages in (setup, prompt, interrupt, dtmf, error),
 * our `text` tokens and `end` out. The transcript records what was actually said: an answer the
 * caller interrupts keeps only the words Twilio spoke before the interruption.
 *
 * Latency: a prompt goes to the brain at once; every token is sent the moment it arrives, and
 * the transcript is saved after the turn, off the path the caller hears.
 */
export interface RelayOut {
  send(message: RelayOutMessage): void;
  /** Saves what changed, in order; resolves when saved (failures are logged there, the call goes on). */
  save(update: ConversationUpdate): Promise<void>;
  /**
   * What operators whispered to the call so far, read before each turn: the request may land on
   * any process, and the database is where they all meet (one primary-key read per turn).
   */
  guidance?(): Promise<string[]>;
  /**
   * The recording rule at work (call_data.recording): start Twilio's recording of the call now
   * (`start`), and keep the person's answer to the consent question (`consent`, null if not asked).
   */
  recording?(change: { start: boolean; consent: boolean | null; callSid: string }): Promise<void>;
}

export type RelayOutMessage =
  | { type: 'text'; token: string; last: boolean }
  | { type: 'end'; handoffData: string };

const FALLBACK = 'Sorry, I am having trouble right now. We will call you back. Goodbye.';

export class RelaySession {
  readonly transcript: TranscriptTurn[] = [];
  private answering: AbortController | null = null;
  private pendingPrompt = '';
  private ended = false;
  private callSid = '';
  /** Under after_consent, from the question until the person answers it. */
  private awaitingConsent = false;

  constructor(private readonly script: CallScript, private readonly brain: AgentBrain, private readonly out: RelayOut, private readonly llmModel: string | null = null) {}

  /**
   * Twilio's setup: the welcome greeting (openingWords: the first message, after the disclosure,
   * or the consent question) is being spoken by Twilio. After a disclosure the recording starts
   * now; after a consent question the next thing the person says or presses is the answer.
   */
  setup(callSid: string): void {
    this.callSid = callSid;
    const greeting = openingWords(this.script);
    if (greeting) this.transcript.push({ role: 'assistant', text: greeting });
    void this.out.save({ transcript: [...this.transcript] });
    const rule = this.script.recording?.rule;
    if (rule === 'after_consent') this.awaitingConsent = true;
    if (rule === 'after_disclosure') void this.out.recording?.({ start: true, consent: null, callSid });
  }

  /** The answer to the consent question: yes or 1 records, anything else goes on unrecorded; then the first message. */
  private consentAnswer(answer: { said: string } | { pressed: string }): void {
    this.awaitingConsent = false;
    const consent = consentGiven(answer);
    this.transcript.push({ role: 'user', text: 'said' in answer ? answer.said : `[pressed ${answer.pressed.slice(0, 8)}]` });
    void this.out.recording?.({ start: consent, consent, callSid: this.callSid });
    const reply = [consent ? 'Thank you.' : 'Understood: this call is not recorded.', this.script.assistant?.firstMessage].filter(Boolean).join(' ');
    this.transcript.push({ role: 'assistant', text: reply });
    this.out.send({ type: 'text', token: reply, last: true });
    void this.out.save({ transcript: [...this.transcript] });
  }

  /** A message from Twilio, as parsed JSON; returns an error description for a malformed one. */
  handle(message: unknown): string | null {
    const m = (message && typeof message === 'object' ? message : {}) as Record<string, unknown>;
    switch (m.type) {
      case 'setup':
        this.setup(typeof m.callSid === 'string' ? m.callSid : '');
        return null;
      case 'prompt':
        if (typeof m.voicePrompt !== 'string') return 'prompt without voicePrompt';
        this.pendingPrompt += m.voicePrompt;
        // Twilio may send a prompt in parts; the caller's turn is complete with `last`.
        if (m.last !== false) {
          const text = this.pendingPrompt.trim();
          this.pendingPrompt = '';
          if (text && this.awaitingConsent) this.consentAnswer({ said: text });
          else if (text) this.userSaid(text);
        }
        return null;
      case 'dtmf':
        if (typeof m.digit !== 'string') return 'dtmf without digit';
        if (this.awaitingConsent) this.consentAnswer({ pressed: m.digit });
        else this.userSaid(`[pressed ${m.digit.slice(0, 8)}]`);
        return null;
      case 'interrupt':
        this.interrupted(typeof m.utteranceUntilInterrupt === 'string' ? m.utteranceUntilInterrupt : '');
        return null;
      case 'error':
        return null;
      default:
        return `unknown message type ${JSON.stringify(m.type)}`;
    }
  }

  /** The socket closed: Twilio ended the session (the caller hung up, or after our `end`). */
  closed(): void {
    this.answering?.abort();
    if (!this.ended) void this.out.save({ transcript: [...this.transcript], endedBy: 'HUMAN' });
    this.ended = true;
  }

  private userSaid(text: string): void {
    if (this.ended) return;
    this.answering?.abort();
    this.transcript.push({ role: 'user', text });
    // Saved as it happens (a caller who hangs up leaves nothing unsaved), off the path to the answer.
    void this.out.save({ transcript: [...this.transcript] });
    void this.answer();
  }

  /** The caller spoke over the answer: stop it, and keep only what was heard. */
  private interrupted(heard: string): void {
    // The answer may still stream, or be sent whole and still being spoken by Twilio.
    const turn = this.transcript.at(-1);
    this.answering?.abort();
    this.answering = null;
    if (turn?.role === 'assistant') turn.text = heard.trim();
    if (turn?.role === 'assistant' && turn.text === '') this.transcript.pop();
    void this.out.save({ transcript: [...this.transcript] });
  }

  private async answer(): Promise<void> {
    const controller = new AbortController();
    this.answering = controller;
    // A failed read must not silence the agent: it answers without the guidance this turn.
    const guidance = this.out.guidance ? await this.out.guidance().catch(() => []) : [];
    if (controller.signal.aborted) return;
    const turn: TranscriptTurn = { role: 'assistant', text: '' };
    const input = {
      system: this.script.assistant?.systemPrompt ?? this.script.prompt ?? DEFAULT_SYSTEM_PROMPT,
      guidance,
      turns: [...this.transcript], model: this.script.assistant?.model ?? this.llmModel,
      canTransfer: Boolean(this.script.assistant?.transferNumber),
    };
    this.transcript.push(turn);
    const tools: AgentToolCall[] = [];
    try {
      for await (const output of this.brain.reply(input, controller.signal)) {
        if (controller.signal.aborted) return;
        if (output.type === 'text') {
          turn.text += output.token;
          this.out.send({ type: 'text', token: output.token, last: false });
        } else {
          tools.push(output.call);
        }
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      // The model failed mid-call: say so and end, rather than leave the caller in silence.
      turn.text += (turn.text ? ' ' : '') + FALLBACK;
      this.out.send({ type: 'text', token: FALLBACK, last: false });
      tools.push({ name: 'end_call', reason: `the language model failed: ${(error as Error).message.slice(0, 200)}` });
    }
    if (controller.signal.aborted) return;
    this.answering = null;
    this.out.send({ type: 'text', token: '', last: true });
    if (turn.text === '') this.transcript.splice(this.transcript.indexOf(turn), 1);
    this.useTools(tools);
  }

  private useTools(tools: AgentToolCall[]): void {
    const update: ConversationUpdate = { transcript: [...this.transcript] };
    let end: string | null = null;
    for (const call of tools) {
      if (call.name === 'mark_outcome') {
        update.outcome = call.outcome === 'not_interested'
          ? { actionStatus: null, reason: call.note ?? 'not interested' }
          : { actionStatus: call.outcome, reason: [call.time && `at ${call.time}`, call.note].filter(Boolean).join('; ') || call.outcome };
      } else if (call.name === 'transfer_call' && this.script.assistant?.transferNumber) {
        update.transferTo = this.script.assistant.transferNumber;
        end = JSON.stringify({ reason: 'transfer', detail: call.reason });
      } else if (call.name === 'do_not_call') {
        update.optOut = true;
      } else if (call.name === 'end_call') {
        end ??= JSON.stringify({ reason: 'end', detail: call.reason });
      }
    }
    if (end !== null) {
      update.endedBy = 'AI';
      this.ended = true;
    }
    const saved = this.out.save(update);
    // Twilio reports the call's end as soon as the session ends: what the agent recorded is saved first.
    if (end !== null) void saved.then(() => this.out.send({ type: 'end', handoffData: end }));
  }
}
