import { describe, expect, it } from 'vitest';
import { detectOptOut } from '../../modules/compliance/opt-out/opt-out-detector.ts';
import { planCall, type PlanInput, type SimPlan } from './sim-script.ts';
import { PERSONAS, type PersonaKind } from './sim-personas.ts';
import { SimProvider } from './sim.ts';

/** The simulator's plans over many calls: what an operator sees on the first day with VOICE_PROVIDER=sim. */
const N = 3000;
const plans = (extra: Partial<PlanInput> = {}, seed = 42): SimPlan[] =>
  Array.from({ length: N }, (_, i) => planCall({ seed, callId: i + 1, contactData: { name: 'Ada', email: 'ada@example.com' }, validNumber: true, inbound: false, ...extra }));
const said = (p: SimPlan, role: 'user' | 'assistant') => p.transcript.filter((t) => t.role === role).map((t) => t.text);

describe('simulated people on answered calls', () => {
  const all = plans();
  const answered = all.filter((p) => p.status === 'finished');

  it('every persona answers some calls, and about a quarter of the answered are interested', () => {
    const count = new Map<PersonaKind | null, number>();
    for (const p of answered) count.set(p.persona, (count.get(p.persona) ?? 0) + 1);
    for (const kind of Object.keys(PERSONAS) as PersonaKind[]) expect(count.get(kind) ?? 0, kind).toBeGreaterThan(answered.length * 0.04);
    const interested = answered.filter((p) => p.actionStatus === 'interested').length / answered.length;
    expect(interested).toBeGreaterThan(0.18);
    expect(interested).toBeLessThan(0.38);
    expect(all.filter((p) => p.status !== 'finished').every((p) => p.persona === null && p.actionStatus === null)).toBe(true);
  });

  it('fills the outcome fields each persona stands for', () => {
    for (const p of answered) {
      const expected = { interested: 'interested', callback: 'scheduled', wants_human: 'transferred' }[p.persona as string] ?? null;
      expect(p.actionStatus, p.persona!).toBe(expected);
      expect(p.actionStatusReason === null).toBe(expected === null);
      expect(p.talkSec).toBeGreaterThanOrEqual(PERSONAS[p.persona!].talkSec[0]);
      expect(p.talkSec).toBeLessThanOrEqual(PERSONAS[p.persona!].talkSec[1]);
      if (p.persona === 'hangs_up') expect(p.endedBy).toBe('HUMAN');
      if (p.persona === 'wants_human') expect(p.endedBy).toBe('AI');
      if (p.persona === 'callback') expect(said(p, 'assistant').join(' ')).toMatch(/scheduled a call for .*\d/);
    }
    expect(new Set(answered.map((p) => p.endedBy))).toEqual(new Set(['HUMAN', 'AI']));
  });

  it('only the opt-out persona is heard by the opt-out detector, and always', () => {
    for (const p of answered) expect(detectOptOut(p.transcript).optOut, `${p.persona}: ${said(p, 'user').join(' | ')}`).toBe(p.persona === 'opt_out');
  });

  it('holds conversations of several turns in varied wording', () => {
    const talks = answered.filter((p) => p.persona !== 'hangs_up');
    expect(talks.every((p) => p.transcript.length >= 4 && said(p, 'user').length >= 2)).toBe(true);
    for (const kind of Object.keys(PERSONAS) as PersonaKind[]) {
      const replies = new Set(answered.filter((p) => p.persona === kind).map((p) => said(p, 'user').join(' ')));
      expect(replies.size, kind).toBeGreaterThanOrEqual(3);
    }
    expect(new Set(answered.map((p) => p.transcript.map((t) => t.text).join('\n'))).size).toBeGreaterThan(answered.length / 10);
  });

  it('opens with the assistant\'s first message when given, else a greeting with the contact\'s name', () => {
    const greeted = answered.map((p) => p.transcript[0]!);
    expect(greeted.every((t) => t.role === 'assistant' && t.text.includes('Ada'))).toBe(true);
    const nameless = planCall({ seed: 42, callId: 1, contactData: { _sim: { status: 'finished' } }, validNumber: true, inbound: false });
    expect(nameless.transcript[0]!.text).toMatch(/^(Hello|Good day)\b/);
    const first = 'Hi Ada, this is Sam from Acme Solar. Got a minute?';
    for (const p of plans({ firstMessage: first }).filter((q) => q.transcript.length > 0 && q.status !== 'voicemail')) expect(p.transcript[0]).toEqual({ role: 'assistant', text: first });
  });

  it('the same seed gives the same plans; another seed other plans', () => {
    expect(plans()).toEqual(all);
    const other = plans({}, 43);
    expect(other.filter((p, i) => p.persona !== all[i]!.persona).length).toBeGreaterThan(N / 10);
  });
});

describe('the _sim override', () => {
  const plan = (sim: Record<string, unknown>, callId = 5) => planCall({ seed: 42, callId, contactData: { _sim: sim }, validNumber: true, inbound: false });

  it('wins over the persona, and a forced status without an action status stays neutral', () => {
    for (let id = 1; id <= 300; id++) {
      const p = plan({ status: 'finished', duration: 30 }, id);
      expect([p.status, p.talkSec, p.actionStatus, p.persona]).toEqual(['finished', 30, null, 'not_interested']);
      expect(detectOptOut(p.transcript).optOut).toBe(false);
    }
    for (let id = 1; id <= 300; id++) expect(plan({ duration: 45 }, id).persona ?? 'not_interested').toBe('not_interested');
    expect(plan({ status: 'finished', action_status: 'scheduled' })).toMatchObject({ actionStatus: 'scheduled', persona: 'callback' });
    expect(plan({ status: 'finished', action_status: 'interested', ended_by: 'HUMAN' })).toMatchObject({ actionStatus: 'interested', endedBy: 'HUMAN', persona: 'interested' });
    expect(plan({ status: 'voicemail', duration: 20 })).toMatchObject({ status: 'voicemail', talkSec: 20, persona: null, actionStatus: null });
    const transcript = [{ role: 'user', text: 'scripted' }];
    expect(plan({ status: 'finished', transcript }).transcript).toEqual(transcript);
    expect(plan({ lost: true }).lost).toBe(true);
    // A chosen persona answers the call (a demo's or a test's way to show one outcome).
    expect(plan({ persona: 'opt_out' })).toMatchObject({ status: 'finished', persona: 'opt_out', actionStatus: null });
    expect(detectOptOut(plan({ persona: 'opt_out' }).transcript).optOut).toBe(true);
    expect(plan({ persona: 'callback', status: 'voicemail' })).toMatchObject({ status: 'voicemail', persona: null });
  });
});

describe('the simulated vendor', () => {
  it('never reads the campaign prompt aloud, and sends the persona\'s outcome with the end event', async () => {
    const clock = { now: () => new Date('2030-01-07T15:00:00Z') };
    const sim = new SimProvider({ secret: 's', clock, timeScale: 1, seed: 42 });
    const prompt = 'You call customers about solar panels. Be brief and polite.';
    const ends = [];
    for (let callId = 1; callId <= 300; callId++) {
      const { providerCallId } = await sim.startCall({ callId, from: null, to: '+12125550123', campaignId: 1, prompt, contactData: { name: 'Ada' }, direction: 'outbound' });
      clock.now = () => new Date(Date.parse('2030-01-07T15:00:00Z') + 3_600_000);
      const fetched = await sim.fetchCall(providerCallId);
      clock.now = () => new Date('2030-01-07T15:00:00Z');
      if (fetched?.state === 'ended') ends.push(fetched.event);
    }
    sim.close();
    const text = ends.flatMap((e) => e.transcript ?? []).map((t) => t.text).join('\n');
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain('solar panels');
    expect(text).not.toContain('You call customers');
    const interested = ends.filter((e) => e.actionStatus === 'interested');
    expect(interested.length).toBeGreaterThan(0);
    expect(interested.every((e) => e.actionStatusReason === 'asked for the details')).toBe(true);
  });
});
