import type { AddressInfo } from 'node:net';
import type { MessageRow } from '../../src/db/tables/messaging.ts';
import { startFakeTwilioMessages, type FakeTwilioMessages, type FakeTwilioMessagesOptions } from '../fakes/twilio-messages.ts';
import { createAccount, type Account } from './factories.ts';
import { seed } from './seed.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * Texts over real sockets: the app listening on 127.0.0.1 with the service's Twilio settings
 * (VOICE_PROVIDER=twilio, so every campaign's texts take them), a fake Twilio Messaging that
 * the app sends to and that calls the app back, signed. No worker runs: a test calls what it
 * checks, and writes the outbound Message rows the text sender would write.
 */
export const SID = `AC${'b2'.repeat(16)}`;
export const TOKEN = 'twilio-text-token-0001';
export const FROM = '+14155550100';

export interface TextScene {
  t: TestApp;
  baseUrl: string;
  fake: FakeTwilioMessages;
  alice: Account;
  /** A campaign of alice's texting from `phone` (default FROM), with one contact per number. */
  campaign(input?: { phone?: string | null; contacts?: { phone: string; status?: string; timezone?: string | null }[]; type?: string }): Promise<{ id: number; contacts: number[] }>;
  /** The outbound Message row the text sender writes before a send. */
  outbound(contactId: number, fields?: Partial<MessageRow>): Promise<MessageRow>;
  message(id: number): Promise<MessageRow>;
  inboundUrl(route?: string): string;
  close(): Promise<void>;
}

export async function textScene(fakeOptions: Omit<FakeTwilioMessagesOptions, 'accountSid' | 'authToken'> = {}): Promise<TextScene> {
  const t = await createTestApp({ TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM_NUMBER: FROM, VOICE_PROVIDER: 'twilio', PUBLIC_BASE_URL: 'http://127.0.0.1:9' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const fake = await startFakeTwilioMessages({ accountSid: SID, authToken: TOKEN, ...fakeOptions });
  const config = t.config as { PUBLIC_BASE_URL?: string; TWILIO_BASE_URL: string };
  config.PUBLIC_BASE_URL = baseUrl;
  config.TWILIO_BASE_URL = fake.url;
  const alice = await createAccount(t);
  const db = t.deps.db;
  const message = (id: number) => db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return {
    t, baseUrl, fake, alice, message,
    async campaign(input = {}) {
      const { campaigns: [campaign] } = await seed(db, { campaigns: [{ owner: { id: alice.id }, campaign_type: input.type ?? 'Outbound', campaign_phone: input.phone === undefined ? FROM : input.phone }] });
      const contacts = input.contacts?.length
        ? (await seed(db, { contacts: input.contacts.map((c) => ({ campaign, phone_number: c.phone, status: c.status ?? 'new', timezone: c.timezone ?? null })) })).contacts
        : [];
      return { id: Number(campaign.id), contacts: contacts.map((c) => Number(c.id)) };
    },
    async outbound(contactId, fields = {}) {
      const contact = await db.selectFrom('contacts').select(['owner_id', 'campaign_id', 'phone_number']).where('id', '=', contactId).executeTakeFirstOrThrow();
      const row = await db.insertInto('messages').values({
        owner_id: contact.owner_id, campaign_id: contact.campaign_id, contact_id: contactId, call_id: null, direction: 'outbound', role_id: 'assistant',
        source: 'sms', purpose: 'follow_up', body: 'Sorry we missed you', status: 'sending', to_number: contact.phone_number, from_number: FROM,
        provider: 'twilio', voice_connection_id: null, provider_message_id: null, ...fields,
      } as never).returning('id').executeTakeFirstOrThrow();
      return message(Number(row.id));
    },
    inboundUrl: (route = 'env') => `${baseUrl}/api/v1/messaging/twilio/inbound/${route}`,
    async close() {
      await fake.close();
      await t.close();
    },
  };
}
