import type { TerminalCallStatus, TranscriptTurn } from '../provider.ts';

/**
 * What the simulator decides for one call: seeded per call id, so a run is
 * reproducible whatever order calls are placed in. Durations are simulated seconds.
 */
export interface SimPlan {
  status: TerminalCallStatus;
  ringSec: number;
  talkSec: number;
  actionStatus: 'transferred' | 'scheduled' | 'interested' | null;
  endedBy: 'HUMAN' | 'AI' | null;
  transcript: TranscriptTurn[];
  endedReason: string;
  /** The simulated provider accepts the call and then forgets it: no event, fetchCall unknown. */
  lost: boolean;
}

export const SIM_COST_PER_MINUTE = 0.09;

/** mulberry32: small, fast, good enough for outcome mixes. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const between = (rng: () => number, lo: number, hi: number) => Math.round(lo + rng() * (hi - lo));

// Outcome mix of outbound campaign calls, roughly what vendors report for consented lists.
const MIX: [TerminalCallStatus, number][] = [
  ['finished', 0.55], ['unavailable', 0.14], ['voicemail', 0.12], ['busy_or_rejected', 0.09],
  ['silence', 0.04], ['rejected', 0.03], ['failed', 0.02], ['terminated', 0.01],
];

const ENDED_REASON: Record<string, string> = {
  finished: 'conversation completed', unavailable: 'no answer', voicemail: 'reached voicemail',
  busy_or_rejected: 'line busy', silence: 'no speech detected', rejected: 'call rejected by callee',
  failed: 'carrier error', terminated: 'call dropped', 'invalid number': 'number does not exist',
  'insufficient funds': 'provider account balance too low',
};

export interface SimOverride {
  status?: TerminalCallStatus;
  duration?: number;
  action_status?: 'transferred' | 'scheduled' | 'interested' | null;
  ended_by?: 'HUMAN' | 'AI' | null;
  transcript?: TranscriptTurn[];
  lost?: boolean;
}

export function planCall(input: { seed: number; callId: number; prompt: string | null; contactData: Record<string, unknown>; validNumber: boolean; inbound: boolean }): SimPlan {
  const rng = seededRandom((input.seed * 2654435761) ^ input.callId);
  const override = (input.contactData._sim ?? {}) as SimOverride;
  let status: TerminalCallStatus = input.inbound ? 'finished' : pick(rng);
  if (!input.validNumber) status = 'invalid number';
  if (override.status) status = override.status;
  const answered = status === 'finished' || status === 'voicemail' || status === 'silence' || status === 'terminated';
  const ringSec = status === 'invalid number' || status === 'insufficient funds' ? 1 : input.inbound ? 1 : status === 'unavailable' ? 30 : between(rng, 3, 18);
  let talkSec = 0;
  if (answered) talkSec = status === 'finished' ? between(rng, 35, 300) : status === 'voicemail' ? between(rng, 15, 40) : between(rng, 5, 20);
  if (override.duration !== undefined) talkSec = Math.max(0, Math.round(override.duration));
  let actionStatus: SimPlan['actionStatus'] = null;
  if (status === 'finished') {
    const r = rng();
    actionStatus = r < 0.25 ? 'interested' : r < 0.37 ? 'scheduled' : r < 0.42 ? 'transferred' : null;
  }
  if (override.action_status !== undefined) actionStatus = override.action_status;
  let endedBy: SimPlan['endedBy'] = answered ? (rng() < 0.6 ? 'HUMAN' : 'AI') : null;
  if (override.ended_by !== undefined) endedBy = override.ended_by;
  const transcript = override.transcript ?? buildTranscript(status, actionStatus, input.prompt, input.contactData, rng);
  return { status, ringSec, talkSec, actionStatus, endedBy, transcript, endedReason: ENDED_REASON[status] ?? status, lost: override.lost === true };
}

function pick(rng: () => number): TerminalCallStatus {
  let r = rng();
  for (const [status, p] of MIX) {
    if ((r -= p) < 0) return status;
  }
  return 'finished';
}

function topicOf(prompt: string | null): string {
  const first = (prompt ?? '').split(/[.!?\n]/)[0]?.trim() ?? '';
  return first ? first.slice(0, 120) : 'our offer';
}

function field(data: Record<string, unknown>, ...keys: string[]): string | null {
  for (const k of keys) if (typeof data[k] === 'string' && data[k]) return data[k] as string;
  return null;
}

function buildTranscript(status: TerminalCallStatus, action: SimPlan['actionStatus'], prompt: string | null, data: Record<string, unknown>, rng: () => number): TranscriptTurn[] {
  const name = field(data, 'name', 'first_name', 'full_name');
  const hello = `Hello${name ? ` ${name}` : ''}, this is the virtual assistant calling about: ${topicOf(prompt)}.`;
  if (status === 'voicemail') return [{ role: 'assistant', text: `${hello} Please call us back when you have a moment.` }];
  if (status === 'silence') return [{ role: 'assistant', text: hello }, { role: 'assistant', text: 'Hello? Are you there?' }];
  if (status === 'terminated') return [{ role: 'assistant', text: hello }, { role: 'user', text: 'Sorry, who is' }];
  if (status !== 'finished') return [];
  const email = field(data, 'email');
  const turns: TranscriptTurn[] = [{ role: 'assistant', text: hello }, { role: 'user', text: rng() < 0.5 ? 'Hi, yes, go ahead.' : 'Hello. What is this about?' }];
  turns.push({ role: 'assistant', text: 'I would like to ask you a couple of quick questions, it takes two minutes.' });
  if (action === 'interested') {
    turns.push({ role: 'user', text: `Yes, I am interested. Send the details to ${email ?? 'my e-mail'}, please.` });
    turns.push({ role: 'assistant', text: 'Perfect, you will receive them today. Thank you!' });
  } else if (action === 'scheduled') {
    turns.push({ role: 'user', text: 'Not now. Call me back tomorrow at 10:00.' });
    turns.push({ role: 'assistant', text: 'Sure, I scheduled a call for tomorrow at 10:00.' });
  } else if (action === 'transferred') {
    turns.push({ role: 'user', text: 'Can I speak to a person, please?' });
    turns.push({ role: 'assistant', text: 'Of course, transferring you to a colleague now.' });
  } else {
    turns.push({ role: 'user', text: 'No, thank you, I am not interested.' });
    turns.push({ role: 'assistant', text: 'Understood. Thank you for your time, goodbye.' });
  }
  return turns;
}
