import { isValidPhoneNumber } from 'libphonenumber-js/max';
import type { Clock } from '../../shared/clock.ts';
import { SIGNATURE_HEADER, signBody, verifySignature } from '../signature.ts';
import type { CallControls, CallEvent, EventDelivery, FetchedCall, InProcessCalls, StartCallRequest, VoiceProvider, WebhookInput } from '../provider.ts';
import { CallNotLiveError, isTerminalCallStatus } from '../provider.ts';
import { planCall, SIM_COST_PER_MINUTE } from './sim-script.ts';
import { idFromMetadata } from '../metadata-id.ts';
import { simulatedRecordingUrl } from '../sim-recording-url.ts';

/**
 * The default provider: a simulated telephony vendor. Each call's outcome is seeded by
 * (SIM_SEED, call id); its events are due at clock times scaled by SIM_TIME_SCALE and
 * are signed as a real vendor signs them, then handed to the delivery the process gave it
 * at start-up (the events service, in-process, which checks the signature as the events
 * route does).
 */
export interface SimOptions {
  secret: string;
  clock: Clock;
  timeScale: number;
  seed: number;
  /** PUBLIC_BASE_URL: a simulated call's record_url is absolute with it, else relative to the service. */
  publicBaseUrl?: string | undefined;
}

interface WireEvent {
  id: string;
  type: CallEvent['type'];
  call_id: string;
  metadata: { call_id: number | null };
  timestamp: string;
  status?: string;
  duration?: number;
  cost?: number;
  transcript?: CallEvent['transcript'];
  turn?: CallEvent['turn'];
  action_status?: CallEvent['actionStatus'];
  action_status_reason?: string;
  ended_by?: CallEvent['endedBy'];
  ended_reason?: string;
  record_url?: string;
  /** A call through a SIP route: the trunk's final answer. */
  sip_code?: number;
}

interface SimCall {
  callId: number;
  pending: { dueAt: number; event: WireEvent; tries: number }[];
  ended: WireEvent | null;
  lost: boolean;
  /** Guidance an operator whispered, in order (the simulated agent acknowledges each in its transcript). */
  whispers: string[];
}

const MAX_RING_SEC = 30;
const MAX_TALK_SEC = 600;
const RECORDING_DELAY_SEC = 5;
const DELIVERY_BATCH = 100;
const PARALLEL_DELIVERIES = 4;

export class SimProvider implements VoiceProvider, InProcessCalls {
  readonly name = 'sim';
  readonly capabilities;
  readonly simulatesInbound = true;
  private readonly calls = new Map<string, SimCall>();
  // Calls with events still to deliver: the timer and the pump only look at these, not
  // at every finished call kept for fetchCall (which would make each round O(all calls)).
  private readonly active = new Set<SimCall>();
  private delivery: EventDelivery | null = null;
  private timer: NodeJS.Timeout | null = null;
  private pumping: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly options: SimOptions) {
    // The longest simulated call, scaled, plus a margin for slow delivery.
    this.capabilities = { reconcileAfterMs: ((MAX_RING_SEC + MAX_TALK_SEC + 60) * 1000) / options.timeScale + 2_000 };
  }

  setDelivery(deliver: EventDelivery | null) {
    this.delivery = deliver;
  }

  async startCall(req: StartCallRequest): Promise<{ providerCallId: string }> {
    return this.schedule(req, this.options.clock.now().getTime());
  }

  /**
   * The same plan as at the dial (seeded by call id), timed from the original start: events
   * already due are delivered at once, and those the stopped process had delivered carry the
   * same ids, so they are recognised as duplicates.
   */
  async resumeCall(req: StartCallRequest, startedAt: Date): Promise<void> {
    await this.schedule(req, startedAt.getTime());
  }

  private async schedule(req: StartCallRequest, t0: number): Promise<{ providerCallId: string }> {
    const providerCallId = `sim-${req.callId}`;
    if (this.calls.has(providerCallId)) return { providerCallId }; // idempotency key seen: no second dial
    // Like a real vendor, the simulated agent speaks the assistant's first message and never the prompt.
    const voicemail = req.assistant?.voicemail;
    const plan = planCall({
      seed: this.options.seed, callId: req.callId, contactData: req.contactData, validNumber: isValidPhoneNumber(req.to), inbound: req.direction === 'inbound',
      firstMessage: req.assistant?.firstMessage ?? null, voicemailMessage: voicemail?.action === 'leave_message' ? voicemail.message : null,
      sip: Boolean(req.sip),
    });
    const sim: SimCall = { callId: req.callId, pending: [], ended: null, lost: plan.lost, whispers: [] };
    this.calls.set(providerCallId, sim);
    if (plan.lost) return { providerCallId };
    const at = (simSec: number) => t0 + (simSec * 1000) / this.options.timeScale;
    const base = (type: WireEvent['type'], simSec: number, n: number): WireEvent => ({
      id: `${providerCallId}-${n}`, type, call_id: providerCallId, metadata: { call_id: req.callId }, timestamp: new Date(at(simSec)).toISOString(),
    });
    if (req.direction === 'outbound') sim.pending.push({ dueAt: at(0), event: base('ringing', 0, 0), tries: 0 });
    if (plan.talkSec > 0) sim.pending.push({ dueAt: at(plan.ringSec), event: base('answered', plan.ringSec, 1), tries: 0 });
    const endSec = plan.ringSec + plan.talkSec;
    // The script is spoken over the call, a turn at a time, as a real agent's transcript grows;
    // a resumed call does not say again what was said before the stop (turns are not de-duplicated).
    const now = this.options.clock.now().getTime();
    if (plan.talkSec > 0) plan.transcript.forEach((turn, i) => {
      const sec = plan.ringSec + (plan.talkSec * i) / plan.transcript.length;
      if (at(sec) < now) return;
      sim.pending.push({ dueAt: at(sec), event: { ...base('turn', sec, 0), id: `${providerCallId}-turn-${i}`, turn }, tries: 0 });
    });
    const cost = Math.round((plan.talkSec / 60) * SIM_COST_PER_MINUTE * 10_000) / 10_000;
    const ended: WireEvent = {
      ...base('ended', endSec, 2), status: plan.status, duration: plan.talkSec, cost, transcript: plan.transcript,
      action_status: plan.actionStatus, ended_by: plan.endedBy, ended_reason: plan.endedReason,
      ...(plan.actionStatusReason ? { action_status_reason: plan.actionStatusReason } : {}),
      ...(plan.sipCode !== null ? { sip_code: plan.sipCode } : {}),
    };
    sim.pending.push({ dueAt: at(endSec), event: ended, tries: 0 });
    // The recording is ready a little after the hang-up, as with real vendors.
    if (plan.talkSec > 0) sim.pending.push({ dueAt: at(endSec + RECORDING_DELAY_SEC), event: { ...base('recording', endSec + RECORDING_DELAY_SEC, 3), record_url: simulatedRecordingUrl(this.options.publicBaseUrl, req.callId) }, tries: 0 });
    this.active.add(sim);
    this.arm();
    return { providerCallId };
  }

  async hangup(providerCallId: string): Promise<void> {
    const sim = this.calls.get(providerCallId);
    if (!sim || sim.ended) return;
    const now = this.options.clock.now();
    sim.pending = [];
    const ended: WireEvent = { id: `${providerCallId}-hangup`, type: 'ended', call_id: providerCallId, metadata: { call_id: sim.callId }, timestamp: now.toISOString(), status: 'terminated', ended_by: 'AI', ended_reason: 'hung up by the service' };
    sim.ended = ended;
    sim.pending.push({ dueAt: now.getTime(), event: ended, tries: 0 });
    this.active.add(sim);
    this.arm();
  }

  /**
   * An operator's controls act on the call at once, as a vendor's do. The call lives in the
   * process that placed it: another process's simulator knows nothing of it (CallNotLiveError).
   */
  readonly controls: CallControls = {
    end: async (providerCallId) => this.operatorEnd(providerCallId, {}),
    transfer: async (providerCallId, phoneNumber) => this.operatorEnd(providerCallId, { action_status: 'transferred', action_status_reason: `transferred to ${phoneNumber}` }),
    whisper: async (providerCallId, message) => {
      this.liveCall(providerCallId).whispers.push(message);
    },
  };

  /** What operators whispered to a simulated call, for tests and the simulated transcript. */
  whispersOf(providerCallId: string): string[] {
    return [...(this.calls.get(providerCallId)?.whispers ?? [])];
  }

  private liveCall(providerCallId: string): SimCall {
    const sim = this.calls.get(providerCallId);
    if (!sim || sim.lost || sim.ended || !sim.pending.some((p) => p.event.type === 'ended')) {
      throw new CallNotLiveError('the simulator holds no live call with this id in this process (it ended, or another process placed it)');
    }
    return sim;
  }

  /** Ends the call now, with what was said until now: the planned end is replaced. */
  private operatorEnd(providerCallId: string, fields: Partial<WireEvent>): void {
    const sim = this.liveCall(providerCallId);
    const now = this.options.clock.now();
    const planned = sim.pending.find((p) => p.event.type === 'ended')!;
    const answered = sim.pending.find((p) => p.event.type === 'answered');
    const answeredAt = answered ? null : Date.parse(planned.event.timestamp) - (planned.event.duration ?? 0) * 1000 / this.options.timeScale;
    const talkSec = answeredAt === null ? 0 : Math.max(0, Math.round((now.getTime() - answeredAt) * this.options.timeScale / 1000));
    const share = (planned.event.duration ?? 0) > 0 ? Math.min(1, talkSec / planned.event.duration!) : 0;
    const said = (planned.event.transcript ?? []).slice(0, Math.ceil((planned.event.transcript?.length ?? 0) * share));
    const acknowledged = sim.whispers.map(() => ({ role: 'assistant' as const, text: 'Understood, I will keep that in mind.' }));
    const ended: WireEvent = {
      id: `${providerCallId}-operator`, type: 'ended', call_id: providerCallId, metadata: { call_id: sim.callId }, timestamp: now.toISOString(),
      status: talkSec > 0 ? 'finished' : 'terminated', duration: talkSec, cost: Math.round((talkSec / 60) * SIM_COST_PER_MINUTE * 10_000) / 10_000,
      transcript: [...said, ...acknowledged], ended_by: 'HUMAN', ended_reason: 'ended by operator', ...fields,
    };
    sim.pending = [{ dueAt: now.getTime(), event: ended, tries: 0 }];
    this.active.add(sim);
    this.arm();
  }

  async fetchCall(providerCallId: string): Promise<FetchedCall> {
    const sim = this.calls.get(providerCallId);
    if (!sim || sim.lost) return null;
    const ended = sim.ended ?? sim.pending.find((p) => p.event.type === 'ended' && p.dueAt <= this.options.clock.now().getTime())?.event;
    if (!ended) return { state: 'in progress' };
    return { state: 'ended', event: toCallEvent(ended) };
  }

  verifyWebhook(input: WebhookInput): boolean {
    const header = input.headers[SIGNATURE_HEADER];
    return verifySignature(this.options.secret, input.rawBody, Array.isArray(header) ? header[0] : header, this.options.clock.now());
  }

  parseWebhook(input: WebhookInput): CallEvent[] {
    const body = JSON.parse(input.rawBody) as { events?: WireEvent[] };
    return (body.events ?? []).map(toCallEvent);
  }

  /** Delivers every event that is due by the clock; tests with a fake clock call it directly. */
  pump(): Promise<void> {
    // Rounds run one after another, each seeing the clock as it is when it starts.
    const round = (this.pumping ?? Promise.resolve()).then(() => this.deliverDue()).finally(() => {
      if (this.pumping === round) {
        this.pumping = null;
        this.arm();
      }
    });
    this.pumping = round;
    return round;
  }

  /** Events not yet delivered, for tests and shutdown. */
  pendingCount(): number {
    let n = 0;
    for (const sim of this.active) n += sim.pending.length;
    return n;
  }

  close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private async deliverDue() {
    const now = this.options.clock.now().getTime();
    const due: { sim: SimCall; item: SimCall['pending'][number] }[] = [];
    for (const sim of this.active) {
      for (const item of sim.pending) if (item.dueAt <= now) due.push({ sim, item });
    }
    // By call, so one call's events share a batch (and a transaction) instead of waiting on each other.
    due.sort((a, b) => a.sim.callId - b.sim.callId || a.item.dueAt - b.item.dueAt);
    for (const { sim, item } of due) {
      sim.pending.splice(sim.pending.indexOf(item), 1);
      if (sim.pending.length === 0) this.active.delete(sim);
      if (item.event.type === 'ended') sim.ended = item.event;
    }
    if (!this.delivery) return;
    // Like real vendors under load, events go out in batches, a few requests at a time.
    const chunks: (typeof due)[] = [];
    for (let i = 0; i < due.length; i += DELIVERY_BATCH) chunks.push(due.slice(i, i + DELIVERY_BATCH));
    const send = async (chunk: typeof due) => {
      const body = JSON.stringify({ events: chunk.map((d) => d.item.event) });
      try {
        await this.delivery!({ path: `/api/v1/voice/${this.name}/events`, body, headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signBody(this.options.secret, body, this.options.clock.now()) } });
      } catch {
        // A vendor retries failed deliveries a few times; after that the reconciler asks fetchCall.
        for (const { sim, item } of chunk) {
          if (item.tries < 5) {
            sim.pending.push({ ...item, dueAt: now + 200 * 2 ** item.tries, tries: item.tries + 1 });
            this.active.add(sim);
          }
        }
      }
    };
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(PARALLEL_DELIVERIES, chunks.length) }, async () => {
      while (next < chunks.length) await send(chunks[next++]!);
    }));
    // Finished calls are kept (fetchCall answers for them) but their memory is bounded.
    if (this.calls.size > 200_000) {
      for (const [id, sim] of this.calls) {
        if (sim.pending.length === 0) this.calls.delete(id);
        if (this.calls.size <= 100_000) break;
      }
    }
  }

  private arm() {
    if (this.closed || this.pumping) return;
    let next = Infinity;
    for (const sim of this.active) for (const p of sim.pending) next = Math.min(next, p.dueAt);
    if (next === Infinity) return;
    if (this.timer) clearTimeout(this.timer);
    const delay = Math.max(0, Math.min(next - this.options.clock.now().getTime(), 60_000));
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.pump();
    }, delay);
    this.timer.unref();
  }
}

/** The vendor's reason, led by any status we do not know (such an end still ends the call, as failed). */
function endedReasonOf(e: WireEvent): { endedReason?: string } {
  const unknown = e.status && !isTerminalCallStatus(e.status) ? `unknown provider status '${e.status}'` : null;
  const reason = [unknown, e.ended_reason].filter(Boolean).join(': ');
  return reason ? { endedReason: reason } : {};
}

function toCallEvent(e: WireEvent): CallEvent {
  return {
    eventId: e.id,
    callId: idFromMetadata(e.metadata?.call_id),
    providerCallId: e.call_id,
    type: e.type,
    at: new Date(e.timestamp),
    // A status we do not know still ends the call, as failed (dropped, the end would be a mere
    // fill and the call would wait for an end that never comes).
    ...(e.status ? { status: isTerminalCallStatus(e.status) ? e.status : 'failed' } : {}),
    ...(e.duration !== undefined ? { durationSec: e.duration } : {}),
    ...(e.cost !== undefined ? { cost: e.cost } : {}),
    ...(e.transcript ? { transcript: e.transcript } : {}),
    ...(e.turn ? { turn: e.turn } : {}),
    ...(e.action_status !== undefined ? { actionStatus: e.action_status } : {}),
    ...(e.action_status_reason ? { actionStatusReason: e.action_status_reason } : {}),
    ...(e.ended_by !== undefined ? { endedBy: e.ended_by } : {}),
    ...endedReasonOf(e),
    ...(e.record_url ? { recordUrl: e.record_url } : {}),
    ...(typeof e.sip_code === 'number' ? { sipCode: e.sip_code } : {}),
  };
}
