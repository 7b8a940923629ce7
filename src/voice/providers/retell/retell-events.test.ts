import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallEvent } from '../../provider.ts';
import type { RetellScript } from '../../../../test/fakes/retell.ts';
import { parseRetellEvents } from './retell-events.ts';
import { RETELL_OUTCOMES } from './retell-outcomes.ts';
import { AGENT, callRequest, retellScene, type RetellScene } from '../../../../test/helpers/retell-scene.ts';
import type { DisconnectionReason, PhoneCallResponse } from './retell-types.ts';

const ended = (over: Partial<PhoneCallResponse>): string => JSON.stringify({
  event: 'call_ended',
  call: { call_id: 'call_x', call_type: 'phone_call', agent_id: AGENT, agent_version: 1, call_status: 'ended', direction: 'outbound', from_number: '+14155550100', to_number: '+15555550123', metadata: { call_id: 42 }, start_timestamp: 1_000_000, end_timestamp: 1_065_000, ...over },
});

describe('the disconnection_reason table', () => {
  for (const [reason, outcome] of Object.entries(RETELL_OUTCOMES)) {
    it(`maps ${reason} to '${outcome.status}'`, () => {
      const [event] = parseRetellEvents(ended({ disconnection_reason: reason as DisconnectionReason }));
      expect(event).toMatchObject({ type: 'ended', status: outcome.status, endedBy: outcome.endedBy, endedReason: reason, callId: 42, providerCallId: 'call_x' });
      expect(event!.actionStatus).toBe(outcome.actionStatus);
    });
  }

  it('ends a call with an unknown reason as failed, saying so', () => {
    expect(parseRetellEvents(ended({ disconnection_reason: 'brand_new' as DisconnectionReason }))[0]).toMatchObject({ status: 'failed', endedReason: "unknown disconnection_reason 'brand_new'" });
  });

  it('lets voicemail detection win over a plain hang-up', () => {
    expect(parseRetellEvents(ended({ disconnection_reason: 'agent_hangup', call_analysis: { in_voicemail: true } }))[0]).toMatchObject({ status: 'voicemail' });
  });

  it('converts cents to dollars, takes the duration from the timestamps when duration_ms is missing, and maps the transcript roles', () => {
    const [event] = parseRetellEvents(ended({
      disconnection_reason: 'user_hangup', call_cost: { combined_cost: 123.4, product_costs: [], total_duration_seconds: 65, total_duration_unit_price: 0 },
      transcript_object: [{ role: 'agent', content: 'Hi', words: [] }, { role: 'user', content: 'Hello', words: [] }], recording_url: 'https://r/x.wav',
    }));
    expect(event).toMatchObject({ cost: 1.234, durationSec: 65, recordUrl: 'https://r/x.wav', transcript: [{ role: 'assistant', text: 'Hi' }, { role: 'user', text: 'Hello' }] });
  });
});

describe('transcript_updated', () => {
  it('numbers every turn of the transcript so far, so the live stream can show each place once; an empty turn is skipped', () => {
    const body = JSON.parse(ended({ call_status: 'ongoing', transcript_object: [{ role: 'agent', content: 'Hi', words: [] }, { role: 'user', content: '', words: [] }, { role: 'user', content: 'Hello', words: [] }] })) as Record<string, unknown>;
    const events = parseRetellEvents(JSON.stringify({ ...body, event: 'transcript_updated' }));
    expect(events).toMatchObject([
      { type: 'turn', callId: 42, providerCallId: 'call_x', turnSeq: 0, turn: { role: 'assistant', text: 'Hi' }, eventId: 'transcript_updated:call_x:0' },
      { type: 'turn', callId: 42, providerCallId: 'call_x', turnSeq: 1, turn: { role: 'user', text: 'Hello' }, eventId: 'transcript_updated:call_x:1' },
    ]);
  });
});

describe('events of each scripted outcome, through the fake', () => {
  let scene: RetellScene;
  beforeEach(async () => {
    scene = await retellScene();
  });
  afterEach(async () => {
    await scene.close();
  });

  async function run(script: RetellScript) {
    scene.fake.script('+15555550123', script);
    const req = callRequest({ to: '+15555550123' });
    const { providerCallId } = await scene.provider.startCall(req);
    await scene.fake.idle();
    const events = scene.events().filter((e) => e.providerCallId === providerCallId);
    const of = (id: string) => events.filter((e) => e.eventId === `${id}:${providerCallId}`);
    return { req, providerCallId, events, of };
  }
  const kinds = (events: CallEvent[]) => events.map((e) => e.eventId.split(':')[0]);

  it('interested: answered, ended finished with cost, duration, transcript, recording; analysis with the custom data', async () => {
    const { req, events, of, providerCallId } = await run('interested');
    expect(kinds(events)).toEqual(['call_started', 'call_ended', 'call_analyzed']);
    expect(of('call_started')[0]).toMatchObject({ type: 'answered', callId: req.callId });
    const call = scene.fake.call(providerCallId)!;
    expect(of('call_ended')[0]).toMatchObject({ type: 'ended', status: 'finished', endedBy: 'AI', cost: call.call_cost!.combined_cost / 100, recordUrl: call.recording_url });
    expect(of('call_ended')[0]!.transcript![0]).toEqual({ role: 'assistant', text: 'Hi Ann, do you have a minute?' });
    expect(of('call_analyzed')[0]).toMatchObject({ type: 'ended', status: 'finished', analysis: { call_successful: true, custom_analysis_data: { interested: true } } });
  });

  it('not_interested: the user hangs up', async () => {
    const { of } = await run('not_interested');
    expect(of('call_ended')[0]).toMatchObject({ status: 'finished', endedBy: 'HUMAN' });
    expect(of('call_analyzed')[0]!.analysis).toMatchObject({ call_successful: false, custom_analysis_data: { interested: false } });
  });

  it('voicemail, busy and no answer end with their statuses', async () => {
    expect((await run('voicemail')).of('call_ended')[0]).toMatchObject({ status: 'voicemail' });
    const busy = await run('busy');
    expect(kinds(busy.events)).toEqual(['call_ended', 'call_analyzed']);
    expect(busy.of('call_ended')[0]).toMatchObject({ status: 'busy_or_rejected', durationSec: 0 });
    expect((await run('no_answer')).of('call_ended')[0]).toMatchObject({ status: 'unavailable' });
  });

  it('lose_end: no end event, but fetchCall sees it ended', async () => {
    const { events, providerCallId, req } = await run('lose_end');
    expect(kinds(events)).toEqual(['call_started']);
    expect(await scene.provider.fetchCall(providerCallId, req.callId)).toMatchObject({ state: 'ended', event: { status: 'finished' } });
  });

  it('duplicate: every event twice, with the same ids', async () => {
    const { events } = await run('duplicate');
    expect(kinds(events)).toEqual(['call_started', 'call_started', 'call_ended', 'call_ended', 'call_analyzed', 'call_analyzed']);
    expect(new Set(events.map((e) => e.eventId)).size).toBe(3);
  });

  it('out_of_order: call_ended arrives before call_started and still parses', async () => {
    const { events } = await run('out_of_order');
    expect(kinds(events)).toEqual(['call_ended', 'call_started', 'call_analyzed']);
    expect(events[0]).toMatchObject({ status: 'finished' });
  });

  it('records the service\'s answers to each delivery', async () => {
    scene.receiver.respond = () => ({ status: 401 });
    await run('interested');
    expect(scene.fake.deliveries.map((d) => d.status)).toEqual([401, 401, 401]);
  });
});
