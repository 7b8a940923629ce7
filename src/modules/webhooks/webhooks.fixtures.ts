import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../../db/connection.ts';
import { enqueueWebhookDeliveries } from './enqueue-deliveries.ts';

/**
 * Test fixtures shared by test/webhooks-*.test.ts: real HTTP receivers on 127.0.0.1,
 * a fake OpenAI-compatible server, and calls written straight into the database the
 * way the dialer writes them. Not used by the service itself.
 */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Decides the answer per request; default 200 {"ok":true}. */
  respond: (req: ReceivedRequest) => { status?: number; body?: string; headers?: Record<string, string>; delayMs?: number };
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    port: 0,
    requests: [],
    respond: () => ({}),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.requests.push(received);
      const answer = receiver.respond(received);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
        res.end(answer.body ?? '{"ok":true}');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}`;
  return receiver;
}

/** A fake chat-completions server: `answer` returns the JSON object the model "extracts". */
export async function startFakeLlm(answer: (body: any) => { status?: number; content?: unknown; raw?: string }) {
  const seen: { headers: IncomingHttpHeaders; body: any; path: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      seen.push({ headers: req.headers, body, path: req.url ?? '' });
      const a = answer(body);
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
      res.end(a.raw ?? JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: JSON.stringify(a.content) }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    seen,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export async function createCampaign(db: Db, ownerId: number, title = 'Webhook campaign') {
  return db.insertInto('campaigns').values({ owner_id: ownerId, title, campaign_type: 'Outbound' }).returning(['id']).executeTakeFirstOrThrow();
}

let phoneSeq = 0;

export interface CallInput {
  ownerId: number;
  campaignId: number;
  status?: string;
  action_status?: string | null;
  action_status_reason?: string | null;
  call_ended_by?: 'HUMAN' | 'AI' | null;
  call_ended_by_reason?: string | null;
  transcript?: { role: string; text: string }[] | null;
  contact_data?: Record<string, unknown>;
  record_url?: string | null;
  call_duration?: number;
  extra_call_data?: Record<string, unknown>;
  /** Calls enqueueWebhookDeliveries in the same transaction, as the dialer does. */
  finish?: boolean;
}

export async function createFinishedCall(db: Db, input: CallInput) {
  const phone = `+1202${5_000_000 + ++phoneSeq}`;
  return db.transaction().execute(async (trx) => {
    const contact = await trx
      .insertInto('contacts')
      .values({ owner_id: input.ownerId, campaign_id: input.campaignId, phone_number: phone, status: 'finished', contact_data: JSON.stringify(input.contact_data ?? { name: 'Ann Lee' }) })
      .returning(['id', 'phone_number'])
      .executeTakeFirstOrThrow();
    const transcript = input.transcript === undefined ? [{ role: 'assistant', text: 'Are you interested?' }, { role: 'user', text: 'Yes I am.' }] : input.transcript;
    const callData = { ...(transcript === null ? {} : { transcript }), ...input.extra_call_data };
    const call = await trx
      .insertInto('calls')
      .values({
        owner_id: input.ownerId, campaign_id: input.campaignId, contact_id: contact.id, status: input.status ?? 'finished',
        action_status: input.action_status === undefined ? 'interested' : input.action_status,
        action_status_reason: input.action_status_reason ?? null, call_ended_by: input.call_ended_by ?? null, call_ended_by_reason: input.call_ended_by_reason ?? null,
        from_number: '+12025550100', to_number: contact.phone_number, start_time: new Date('2030-01-02T10:00:00Z'), end_time: new Date('2030-01-02T10:01:35Z'),
        call_duration: input.call_duration ?? 95, call_type: 'outbound', record_url: input.record_url ?? null, call_data: JSON.stringify(callData),
      })
      .returning(['id'])
      .executeTakeFirstOrThrow();
    if (input.finish !== false) await enqueueWebhookDeliveries(trx, call.id);
    return { id: call.id, contactId: contact.id, contactPhone: contact.phone_number };
  });
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, describe?: () => Promise<string>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A probe that fails (a busy embedded database) is simply asked again.
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`waitFor timed out${describe ? `: ${await describe()}` : ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const deliveriesOf = (db: Db, integrationId: number) =>
  db.selectFrom('webhook_deliveries').selectAll().where('integration_id', '=', integrationId).orderBy('id').execute();

/** Waits until no delivery of the integration is pending, and returns them all. */
export async function settled(db: Db, integrationId: number, expected?: number) {
  return waitFor(async () => {
    const rows = await deliveriesOf(db, integrationId);
    if (expected !== undefined && rows.length < expected) return null;
    return rows.every((r) => r.status !== 'pending') ? rows : null;
  }, 10_000, async () => JSON.stringify((await deliveriesOf(db, integrationId)).map((r) => [r.id, r.status, r.reason, r.claimed_by])));
}
