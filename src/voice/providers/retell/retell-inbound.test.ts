import { afterEach, beforeEach, expect, it } from 'vitest';
import { callRequest, retellScene, type RetellScene } from '../../../../test/helpers/retell-scene.ts';

let scene: RetellScene;
beforeEach(async () => {
  scene = await retellScene();
});
afterEach(async () => {
  await scene.close();
});

it('answers call_inbound with the agent, variables and our call id, and the call\'s events name it', async () => {
  const call = callRequest({ direction: 'inbound', from: '+15555550123', to: '+14155550100', assistant: null });
  scene.receiver.respond = (req) => {
    const input = { rawBody: req.body, headers: req.headers };
    if (!scene.provider.verifyWebhook(input)) return { status: 401 };
    const inbound = scene.provider.parseInbound(input);
    if (!inbound) return {};
    expect(inbound).toMatchObject({ from: '+15555550123', to: '+14155550100', providerCallId: expect.stringMatching(/^retell-inbound-[0-9a-f]{24}$/) });
    const answer = scene.provider.answerInbound(inbound, call);
    return { status: answer.statusCode, body: JSON.stringify(answer.body) };
  };
  const rung = await scene.fake.ring({ from: '+15555550123', to: '+14155550100' });
  expect(rung.status).toBe(200);
  expect(rung.answer).toEqual({ call_inbound: { override_agent_id: 'agent_default', metadata: { call_id: call.callId, campaign_id: 7 }, dynamic_variables: expect.objectContaining({ contact_name: 'Ann', campaign_prompt: 'Sell the spring offer.' }) } });
  await scene.fake.idle();
  const events = scene.events().filter((e) => e.providerCallId === rung.callId);
  expect(events.map((e) => e.callId)).toEqual([call.callId, call.callId, call.callId]);
  expect(scene.fake.call(rung.callId!)).toMatchObject({ direction: 'inbound', retell_llm_dynamic_variables: { contact_name: 'Ann' } });
});

it('declines with an empty call_inbound: with no agent on the number, no call is created', async () => {
  scene.receiver.respond = (req) => {
    const inbound = scene.provider.parseInbound({ rawBody: req.body, headers: req.headers })!;
    return { body: JSON.stringify(scene.provider.answerInbound(inbound, null).body) };
  };
  const rung = await scene.fake.ring({ from: '+15555550123', to: '+14155550100' });
  expect(rung).toMatchObject({ status: 200, answer: { call_inbound: {} }, callId: null });
});

it('gives the same provider call id to a redelivered request, and none to event bodies', () => {
  const body = JSON.stringify({ event: 'call_inbound', call_inbound: { from_number: '+15555550123', to_number: '+14155550100' } });
  const a = scene.provider.parseInbound({ rawBody: body, headers: {} });
  expect(scene.provider.parseInbound({ rawBody: body, headers: {} })).toEqual(a);
  expect(scene.provider.parseInbound({ rawBody: JSON.stringify({ event: 'call_started', call: { call_id: 'c' } }), headers: {} })).toBeNull();
});
