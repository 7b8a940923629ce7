import { describe, expect, it } from 'vitest';
import type { AgentBrain, AgentOutput, AgentTurnInput } from './agent-brain.ts';
import type { CallScript } from './call-script.ts';
import type { ConversationUpdate } from './conversation-store.ts';
import { RelaySession, type RelayOutMessage } from './relay-session.ts';
import { SCRIPTED_QUESTION, ScriptedBrain } from './scripted-brain.ts';

const script = (overrides: Partial<NonNullable<CallScript['assistant']>> = {}): CallScript => ({
  callId: 1, status: 'in progress', route: { provider: 'twilio', connectionId: null }, prompt: 'Sell the spring offer.',
  assistant: {
    id: 1, name: 'A', providerAssistantId: null, firstMessage: 'Hello Ann!', systemPrompt: 'Be brief.', voice: null, language: null, model: null,
    voicemail: { action: 'hang_up', message: null }, maxDurationSec: null, transferNumber: '+14155550199', ...overrides,
  },
  recording: null,
});

function harness(brain: AgentBrain, s = script()) {
  const sent: RelayOutMessage[] = [];
  const saves: ConversationUpdate[] = [];
  const recordings: { start: boolean; consent: boolean | null; callSid: string }[] = [];
  const session = new RelaySession(s, brain, { send: (m) => sent.push(m), save: async (u) => { saves.push(u); }, recording: async (r) => { recordings.push(r); } });
  return { session, sent, saves, recordings };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** A brain that answers with the given outputs, one per turn, and records what it was asked. */
function cannedBrain(answers: AgentOutput[][], tokenDelayMs = 0) {
  const asked: AgentTurnInput[] = [];
  const brain: AgentBrain = {
    kind: 'llm',
    async *reply(input, signal) {
      asked.push(input);
      for (const output of answers[asked.length - 1] ?? []) {
        if (tokenDelayMs) await new Promise((resolve) => setTimeout(resolve, tokenDelayMs));
        if (signal.aborted) return;
        yield output;
      }
    },
  };
  return { brain, asked };
}
const text = (...tokens: string[]): AgentOutput[] => tokens.map((token) => ({ type: 'text', token }));

describe('a ConversationRelay session', () => {
  it('streams each token as it comes, ends the turn with last, and records the greeting and both sides', async () => {
    const { brain, asked } = cannedBrain([text('Great', ' news', '!')]);
    const h = harness(brain);
    h.session.handle({ type: 'setup', callSid: 'CA1' });
    h.session.handle({ type: 'prompt', voicePrompt: 'Hi, who is ', last: false });
    h.session.handle({ type: 'prompt', voicePrompt: 'this?', last: true });
    await settle();
    expect(h.sent).toEqual([
      { type: 'text', token: 'Great', last: false }, { type: 'text', token: ' news', last: false }, { type: 'text', token: '!', last: false }, { type: 'text', token: '', last: true },
    ]);
    expect(asked[0]).toMatchObject({ system: 'Be brief.', canTransfer: true, turns: [{ role: 'assistant', text: 'Hello Ann!' }, { role: 'user', text: 'Hi, who is this?' }] });
    expect(h.session.transcript).toEqual([{ role: 'assistant', text: 'Hello Ann!' }, { role: 'user', text: 'Hi, who is this?' }, { role: 'assistant', text: 'Great news!' }]);
  });

  it('an interruption cuts the answer and the transcript keeps only what was heard', async () => {
    const { brain } = cannedBrain([text('Our', ' offer', ' gives', ' you', ' ten', ' percent'), text('Sure.')], 15);
    const h = harness(brain);
    h.session.handle({ type: 'setup' });
    h.session.handle({ type: 'prompt', voicePrompt: 'Tell me', last: true });
    await new Promise((resolve) => setTimeout(resolve, 40));
    h.session.handle({ type: 'interrupt', utteranceUntilInterrupt: 'Our offer', durationUntilInterruptMs: 900 });
    h.session.handle({ type: 'prompt', voicePrompt: 'Send me an email instead', last: true });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(h.session.transcript.map((t) => t.text)).toEqual(['Hello Ann!', 'Tell me', 'Our offer', 'Send me an email instead', 'Sure.']);
    expect(h.sent.filter((m) => m.type === 'text' && m.last)).toHaveLength(1);
  });

  it('the model\'s tools: the outcome is saved, a transfer ends the session with the transfer number kept, end_call ends it by the AI', async () => {
    const { brain } = cannedBrain([[...text('Connecting you.'), { type: 'tool', call: { name: 'mark_outcome', outcome: 'interested', time: null, note: 'wants a person' } }, { type: 'tool', call: { name: 'transfer_call', reason: 'asked for sales' } }]]);
    const h = harness(brain);
    h.session.handle({ type: 'setup' });
    h.session.handle({ type: 'prompt', voicePrompt: 'Can I talk to someone?', last: true });
    await settle();
    expect(h.sent.at(-1)).toEqual({ type: 'end', handoffData: JSON.stringify({ reason: 'transfer', detail: 'asked for sales' }) });
    expect(h.saves.at(-1)).toMatchObject({ outcome: { actionStatus: 'interested', reason: 'wants a person' }, transferTo: '+14155550199', endedBy: 'AI' });
    h.session.closed();
    expect(h.saves.at(-1)!.endedBy).toBe('AI');
  });

  it('a caller who hangs up ends it by the human; dtmf is a turn; a failing model says sorry and ends the call', async () => {
    const failing: AgentBrain = { kind: 'llm', async *reply() { throw new Error('connection refused'); } };
    const h = harness(failing);
    h.session.handle({ type: 'setup' });
    h.session.handle({ type: 'dtmf', digit: '1' });
    await settle();
    expect(h.session.transcript[1]).toEqual({ role: 'user', text: '[pressed 1]' });
    expect(h.sent.at(-1)).toMatchObject({ type: 'end' });
    expect(h.saves.at(-1)).toMatchObject({ endedBy: 'AI' });
    const quiet = harness(cannedBrain([]).brain);
    quiet.session.handle({ type: 'setup' });
    quiet.session.closed();
    expect(quiet.saves.at(-1)).toMatchObject({ endedBy: 'HUMAN' });
    expect(quiet.session.handle({ type: 'bogus' })).toMatch(/unknown message type/);
  });

  it('the scripted demo agent asks its yes/no question, takes yes as interested and no as not, then ends', async () => {
    for (const [answer, actionStatus] of [['Yes please', 'interested'], ['No thanks', null]] as const) {
      const h = harness(new ScriptedBrain());
      h.session.handle({ type: 'setup' });
      h.session.handle({ type: 'prompt', voicePrompt: 'Hello?', last: true });
      await settle();
      expect(h.session.transcript.at(-1)).toEqual({ role: 'assistant', text: SCRIPTED_QUESTION });
      h.session.handle({ type: 'prompt', voicePrompt: answer, last: true });
      await settle();
      expect(h.sent.at(-1)).toMatchObject({ type: 'end' });
      expect(h.saves.at(-1)!.outcome!.actionStatus).toBe(actionStatus);
    }
  });
});

describe('recording consent on our agent', () => {
  const rule = (r: 'after_disclosure' | 'after_consent') => ({ ...script(), recording: {
    rule: r, chosen_by: 'campaign' as const, jurisdiction: 'US-CA', consent: null,
    disclosure: r === 'after_disclosure' ? 'This call is recorded.' : null, consent_prompt: r === 'after_consent' ? 'May we record? Say yes or press 1.' : null,
  } });

  it('after a disclosure: the greeting says so and the recording starts at setup', async () => {
    const h = harness(new ScriptedBrain(), rule('after_disclosure'));
    h.session.handle({ type: 'setup', callSid: 'CA1' });
    await settle();
    expect(h.session.transcript[0]).toEqual({ role: 'assistant', text: 'This call is recorded. Hello Ann!' });
    expect(h.recordings).toEqual([{ start: true, consent: null, callSid: 'CA1' }]);
  });

  it('after consent: yes (or 1) starts the recording; anything else goes on unrecorded; the first message follows, not the brain', async () => {
    for (const [answer, consent] of [[{ type: 'prompt', voicePrompt: 'Yes, sure.', last: true }, true], [{ type: 'dtmf', digit: '1' }, true], [{ type: 'prompt', voicePrompt: 'No thanks.', last: true }, false], [{ type: 'dtmf', digit: '2' }, false]] as const) {
      const h = harness(cannedBrain([[{ type: 'text', token: 'brain' }]]).brain, rule('after_consent'));
      h.session.handle({ type: 'setup', callSid: 'CA2' });
      expect(h.recordings).toEqual([]);
      h.session.handle(answer);
      await settle();
      expect(h.recordings, JSON.stringify(answer)).toEqual([{ start: consent, consent, callSid: 'CA2' }]);
      const reply = consent ? 'Thank you. Hello Ann!' : 'Understood: this call is not recorded. Hello Ann!';
      expect(h.session.transcript.map((t) => t.role)).toEqual(['assistant', 'user', 'assistant']);
      expect(h.session.transcript[0]!.text).toBe('May we record? Say yes or press 1.');
      expect(h.session.transcript[2]!.text).toBe(reply);
      expect(h.sent).toEqual([{ type: 'text', token: reply, last: true }]);
      // The conversation then goes on as usual: the next thing said goes to the brain.
      h.session.handle({ type: 'prompt', voicePrompt: 'What is this about?', last: true });
      await settle();
      expect(h.sent.at(-1)).toEqual({ type: 'text', token: '', last: true });
      expect(h.recordings).toHaveLength(1);
    }
  });
});
