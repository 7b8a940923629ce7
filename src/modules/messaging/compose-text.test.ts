import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from '../../../test/helpers/dialer-harness.ts';
import { startFakeLlm } from '../../../test/fakes/llm-server.ts';
import { composeText } from './compose-text.ts';

/** The LLM writes the text from the prompt and the data; it may not invent a link or a price. */
let h: DialerHarness;
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let answer = 'Hola Ana, le llamamos por los paneles solares. Responda aquí. Responda STOP para no recibir más.';
beforeAll(async () => {
  llm = await startFakeLlm(() => ({ content: { message: answer } }));
  h = await dialerHarness('2030-01-07T15:00:00Z', { LLM_BASE_URL: llm.url, LLM_MODEL: 'test-model' });
});
afterAll(async () => {
  await h?.close();
  await llm?.close();
});

async function contactWithCall() {
  const c = await h.campaign({ title: 'Paneles solares', is_auto_ai_message: true });
  await h.t.deps.db.insertInto('campaign_messaging').values({
    campaign_id: c, owner_id: h.account.id, prompt: 'Invite them to book a free survey at https://example.com/book. Panels from $4,999.',
  }).execute();
  const [contact] = await h.contacts(c, [usNumber()], { contact_data: { name: 'Ana', plan: 'basic', _sim: { status: 'voicemail' } } });
  return contact!;
}

describe('composeText with a model', () => {
  it('uses the model\'s text, sent the prompt, the contact\'s data (not the simulator\'s hints) and the purpose', async () => {
    const contact = await contactWithCall();
    answer = 'Hola Ana, le llamamos por los paneles solares. Reserve en https://example.com/book. Responda STOP para no recibir más.';
    const text = await composeText(h.t.deps, { contactId: contact, callId: null, purpose: 'follow_up', replyToMessageId: null });
    expect(text).toMatchObject({ by: 'llm', body: answer, encoding: 'UCS-2' });
    const sent = llm.seen.at(-1)!.body;
    expect(sent.model).toBe('test-model');
    const user = sent.messages[1].content as string;
    expect(user).toContain('https://example.com/book');
    expect(user).toContain('"plan":"basic"');
    expect(user).not.toContain('_sim');
    expect(user).toMatch(/Purpose: follow-up after a call/);
  });

  it('falls back to the template when the model invents a link or a price, or writes more than two segments', async () => {
    const contact = await contactWithCall();
    for (const [made, why] of [
      ['Hi Ana! Book now at https://solar-deals.biz', /not given: https:\/\/solar-deals\.biz/],
      ['Hi Ana! Panels now only $2,999, book today.', /not given: \$2,999/],
      ['Hi Ana! ' + 'We would love to tell you more. '.repeat(12), /segments/],
    ] as const) {
      answer = made;
      const text = await composeText(h.t.deps, { contactId: contact, callId: null, purpose: 'follow_up', replyToMessageId: null });
      expect(text.by).toBe('template');
      expect(text.fallbackReason).toMatch(why);
      expect(text.body).toBe('Hi Ana, we tried to call you about Paneles solares. Reply here or call us at +12125550100. Reply STOP to opt out.');
    }
  });
});
