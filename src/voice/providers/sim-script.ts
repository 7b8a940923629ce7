import type { TerminalCallStatus, TranscriptTurn } from '../provider.ts';
import { statusOfSipCode } from '../sip-codes.ts';
import { conversation, opener, PERSONAS, personaFor, pickPersona, type PersonaKind, type SimActionStatus } from './sim-personas.ts';

/**
 * What the simulator decides for one call: seeded per call id, so a run is
 * reproducible whatever order calls are placed in. Durations are simulated seconds.
 */
export interface SimPlan {
  status: TerminalCallStatus;
  ringSec: number;
  talkSec: number;
  /** Who answered a `finished` call (sim-personas.ts); null for every other status. */
  persona: PersonaKind | null;
  actionStatus: SimActionStatus;
  actionStatusReason: string | null;
  endedBy: 'HUMAN' | 'AI' | null;
  transcript: TranscriptTurn[];
  endedReason: string;
  /** The simulated provider accepts the call and then forgets it: no event, fetchCall unknown. */
  lost: boolean;
  /** A call through a SIP route: the trunk's final answer to the INVITE (200 when answered); null otherwise. */
  sipCode: number | null;
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
  action_status?: SimActionStatus;
  ended_by?: 'HUMAN' | 'AI' | null;
  transcript?: TranscriptTurn[];
  lost?: boolean;
  /** Who answers (sim-personas.ts): the call is answered unless `status` says otherwise. */
  persona?: PersonaKind;
  /** On a SIP route: the trunk's final answer (e.g. 486); a 3xx-6xx decides the status (sip-codes.ts). */
  sip_code?: number;
}

export interface PlanInput {
  seed: number;
  callId: number;
  contactData: Record<string, unknown>;
  validNumber: boolean;
  inbound: boolean;
  /** The campaign assistant's first message, filled; the agent's first words when given. */
  firstMessage?: string | null;
  /** What the assistant leaves on a voicemail (its leave_message setting). */
  voicemailMessage?: string | null;
  /** The call goes through a customer's SIP trunk (campaign_sip): it ends with a SIP code. */
  sip?: boolean;
}

export function planCall(input: PlanInput): SimPlan {
  const rng = seededRandom((input.seed * 2654435761) ^ input.callId);
  const override = (input.contactData._sim ?? {}) as SimOverride;
  let status: TerminalCallStatus = input.inbound ? 'finished' : pick(rng);
  if (!input.validNumber) status = 'invalid number';
  const chosen = override.persona && Object.hasOwn(PERSONAS, override.persona) ? override.persona : null;
  if (chosen && input.validNumber) status = 'finished';
  if (override.status) status = override.status;
  const sipFailure = input.sip && typeof override.sip_code === 'number' ? statusOfSipCode(override.sip_code) : null;
  if (sipFailure) status = sipFailure.status;
  const answered = status === 'finished' || status === 'voicemail' || status === 'silence' || status === 'terminated';
  const ringSec = status === 'invalid number' || status === 'insufficient funds' ? 1 : input.inbound ? 1 : status === 'unavailable' ? 30 : between(rng, 3, 18);
  // A forced outcome (a test's or a demo's _sim) gets the persona that agrees with it, never one
  // that would add an opt-out or an early hang-up the override did not ask for.
  const forced = (['status', 'action_status', 'duration', 'ended_by', 'transcript'] as const).some((k) => override[k] !== undefined);
  const persona = status !== 'finished' ? null : chosen ?? (forced ? personaFor(override.action_status ?? null) : pickPersona(rng, input.inbound));
  let talkSec = 0;
  if (persona) talkSec = between(rng, ...PERSONAS[persona].talkSec);
  else if (answered) talkSec = status === 'voicemail' ? between(rng, 15, 40) : between(rng, 5, 20);
  if (override.duration !== undefined) talkSec = Math.max(0, Math.round(override.duration));
  let actionStatus: SimActionStatus = persona ? PERSONAS[persona].action : null;
  if (override.action_status !== undefined) actionStatus = override.action_status;
  const actionStatusReason = persona && actionStatus && actionStatus === PERSONAS[persona].action ? PERSONAS[persona].reason : null;
  const humanEnds = persona ? PERSONAS[persona].humanEnds : 0.6;
  let endedBy: SimPlan['endedBy'] = answered ? (rng() < humanEnds ? 'HUMAN' : 'AI') : null;
  if (override.ended_by !== undefined) endedBy = override.ended_by;
  const transcript = override.transcript ?? buildTranscript(status, persona, input, rng);
  const sipCode = !input.sip ? null : typeof override.sip_code === 'number' ? override.sip_code : answered ? 200 : SIP_CODE_OF[status] ?? 500;
  return {
    status, ringSec, talkSec, persona, actionStatus, actionStatusReason, endedBy, transcript,
    endedReason: sipFailure?.reason ?? ENDED_REASON[status] ?? status, lost: override.lost === true, sipCode,
  };
}

/** The answer a trunk gives for each unanswered outcome of the mix, on a simulated SIP route. */
const SIP_CODE_OF: Partial<Record<TerminalCallStatus, number>> = {
  unavailable: 480, busy_or_rejected: 486, rejected: 603, failed: 503, 'invalid number': 404, 'insufficient funds': 402,
};

function pick(rng: () => number): TerminalCallStatus {
  let r = rng();
  for (const [status, p] of MIX) {
    if ((r -= p) < 0) return status;
  }
  return 'finished';
}

function field(data: Record<string, unknown>, ...keys: string[]): string | null {
  for (const k of keys) if (typeof data[k] === 'string' && data[k]) return data[k] as string;
  return null;
}

function buildTranscript(status: TerminalCallStatus, persona: PersonaKind | null, input: PlanInput, rng: () => number): TranscriptTurn[] {
  const name = field(input.contactData, 'first_name', 'name', 'full_name');
  const people = { inbound: input.inbound, firstMessage: input.firstMessage ?? null, name };
  if (persona) return conversation({ ...people, kind: persona, email: field(input.contactData, 'email') }, rng);
  if (status === 'voicemail') {
    const message = input.voicemailMessage?.trim() || `Hello${name ? ` ${name}` : ''}, this is the virtual assistant calling about your recent enquiry. Please call us back when you have a moment.`;
    return [{ role: 'assistant', text: message }];
  }
  if (status === 'silence') return [{ role: 'assistant', text: opener(people, rng) }, { role: 'assistant', text: 'Hello? Are you there?' }];
  if (status === 'terminated') return [{ role: 'assistant', text: opener(people, rng) }, { role: 'user', text: 'Sorry, who is' }];
  return [];
}
