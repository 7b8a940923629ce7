import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, createCampaignViaApi, createSubUser, type Account } from './helpers/factories.ts';
import { NOT_ROW_WRITES, writeOperations, type WriteOperation } from './helpers/write-operations.ts';

/**
 * No request writes a column its operation does not declare. For every create and update
 * operation of the served OpenAPI document, the body is sent with every column of the table
 * it writes that its schema does not name (owner, ids, hashes, counters, timestamps, limit
 * usage, attempts), each set to a value that would show (another account's ids, far-off
 * dates, flipped booleans), plus unknown names. The operation still succeeds (unknown fields
 * are ignored, docs/api-conventions.md), and the row holds what a call without them stores.
 */
type Row = Record<string, unknown>;
type Op = { requestBody?: { content: Record<string, { schema: Schema }> } };
type Schema = { type?: string; properties?: Record<string, unknown>; items?: Schema; anyOf?: Schema[] };

let t: TestApp;
let owner: Account;
let victim: Account;
let admin: Account;
let victimCampaignId: number;
let operations: Record<string, WriteOperation>;
let doc: { paths: Record<string, Record<string, Op>> };

beforeAll(async () => {
  t = await createTestApp();
  [owner, victim, admin] = [await createAccount(t), await createAccount(t), await createAccount(t, { superuser: true })];
  const campaign = async (who: Account, title: string) =>
    (await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: who.headers, payload: { title, campaign_type: 'Outbound' } })).json().id as number;
  victimCampaignId = await campaign(victim, 'Victim');
  const inbound = (await t.request({ method: 'POST', url: '/api/v1/campaigns/', headers: owner.headers, payload: { title: 'Inbound', campaign_type: 'Inbound' } })).json().id as number;
  const fixture = { t, owner, admin, campaignId: await campaign(owner, 'Main'), secondCampaignId: inbound };
  operations = writeOperations(fixture);
  doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
});
afterAll(() => t?.close());

/** The declared fields of an operation's JSON body (of its items, for an array body). */
function declaredFields(op: Op): Set<string> {
  const schema = op.requestBody?.content['application/json']?.schema;
  const objects = (s: Schema | undefined): Schema[] => (!s ? [] : s.anyOf ? s.anyOf.flatMap(objects) : s.type === 'array' ? objects(s.items) : [s]);
  return new Set(objects(schema).flatMap((s) => Object.keys(s.properties ?? {})));
}

async function columnsOf(table: string) {
  const result = await sql<{ column_name: string; data_type: string; udt_name: string }>`
    SELECT column_name, data_type, udt_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ${table}`.execute(t.deps.db);
  return result.rows;
}

const readRow = async (table: string, id: number) =>
  (await sql<Row>`SELECT * FROM ${sql.table(table)} WHERE id = ${id}`.execute(t.deps.db)).rows[0];

const FAR_PAST = '2001-01-01T00:00:00.000Z';

/** A value for a column that differs from `current`, and points at the victim where it is a reference. */
function planted(column: { column_name: string; data_type: string; udt_name: string }, current: unknown): unknown {
  const name = column.column_name;
  if (name === 'owner_id' || name.endsWith('user_id')) return victim.id;
  if (name === 'campaign_id') return victimCampaignId;
  switch (column.data_type) {
    case 'bigint': case 'integer': case 'smallint': return Number(current ?? 0) + 7777;
    case 'numeric': case 'double precision': case 'real': return Number(current ?? 0) + 77.5;
    case 'boolean': return !current;
    case 'timestamp with time zone': case 'timestamp without time zone': return FAR_PAST;
    case 'date': return '2001-01-01';
    case 'time without time zone': return '03:33:33';
    case 'jsonb': case 'json': return { planted: true };
    case 'ARRAY': return column.udt_name.includes('int') ? [7777] : ['planted'];
    default: return `planted-${name}`;
  }
}

/** Names no table has: ignored as well. */
const UNKNOWN = { foo: 1, owner: 'victim', role: 'admin', constructor: 'x' };

async function send(method: string, op: WriteOperation, n: number, plant: (columns: Awaited<ReturnType<typeof columnsOf>>, reference: Row | undefined) => Row) {
  const call = await op.prepare(n);
  const reference = call.rowId === undefined ? undefined : await readRow(op.table, call.rowId);
  const extra = plant(await columnsOf(op.table), reference);
  const body = { ...call.body, ...extra };
  const payload = op.table === 'import_tasks' ? [body] : body;
  const res = await t.request({ method: method.toUpperCase() as 'POST', url: call.url, headers: { ...owner.headers, ...call.headers }, payload });
  return { res, call, reference };
}

describe('mass assignment', () => {
  it('knows every operation with a body: checked here, or written down as writing no row from it', () => {
    const unknown: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const key = `${method} ${path}`;
        if (op.requestBody && !(key in operations) && !(key in NOT_ROW_WRITES)) unknown.push(key);
      }
    }
    expect(unknown).toEqual([]);
  });

  it('stores nothing from undeclared fields on any create or update', async () => {
    const findings: string[] = [];
    let n = 0;
    for (const [key, op] of Object.entries(operations)) {
      const [method, path] = key.split(' ') as [string, string];
      const declared = declaredFields(doc.paths[path]![method]!);
      const ignored = new Set([...declared, ...(op.derived ?? []), 'updated_at']);
      const plantAll = (columns: Awaited<ReturnType<typeof columnsOf>>, reference: Row | undefined) => {
        const extra: Row = { ...UNKNOWN };
        for (const c of columns) if (!declared.has(c.column_name)) extra[c.column_name] = planted(c, reference?.[c.column_name]);
        return extra;
      };
      n += 1;
      const attacked = await send(method, op, n, plantAll);
      // 202: an operation that queues its work (POST /messages/) answers the queued row.
      if (attacked.res.statusCode !== 200 && attacked.res.statusCode !== 202) {
        findings.push(`${key}: ${attacked.res.statusCode} ${attacked.res.body.slice(0, 200)}`);
        continue;
      }
      const answer = attacked.res.json() as Row;
      if ('foo' in answer || answer.owner === 'victim') findings.push(`${key}: an unknown field came back in the answer`);

      if (op.kind === 'update') {
        const after = await readRow(op.table, attacked.call.rowId!);
        for (const [column, value] of Object.entries(attacked.reference!)) {
          if (!ignored.has(column) && JSON.stringify(after![column]) !== JSON.stringify(value)) findings.push(`${key}: ${op.table}.${column} changed to ${JSON.stringify(after![column])}`);
        }
        continue;
      }
      // A create: the row must equal one created by the same call without the planted fields.
      n += 1;
      const plain = await send(method, op, n, () => ({}));
      const attackedRow = await readRow(op.table, op.createdId!(answer));
      const plainRow = await readRow(op.table, op.createdId!(plain.res.json()));
      for (const [column, value] of Object.entries(plainRow!)) {
        const stored = attackedRow![column];
        if (value instanceof Date || ['id', 'key_hash', 'key_prefix', 'token_hash', 'token_prefix', 'signing_secret', 'hashed_password', 'rows'].includes(column)) {
          if (value instanceof Date && (stored as Date).toISOString() === FAR_PAST) findings.push(`${key}: ${op.table}.${column} took the planted date`);
          continue;
        }
        if (!ignored.has(column) && JSON.stringify(stored) !== JSON.stringify(value)) findings.push(`${key}: ${op.table}.${column} stored ${JSON.stringify(stored)}, a plain call ${JSON.stringify(value)}`);
      }
      if (attackedRow!.owner_id !== undefined && attackedRow!.owner_id === victim.id) findings.push(`${key}: the row went to the victim's account`);
    }
    expect(findings).toEqual([]);
    expect(n).toBeGreaterThan(Object.keys(operations).length);
  });

  it('keeps another account\'s rows out of reach: the victim sees nothing new', async () => {
    const count = async (table: string) => Number((await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE owner_id = ${victim.id}`.execute(t.deps.db)).rows[0]!.n);
    for (const table of ['campaigns', 'contacts', 'phone_numbers', 'sub_users', 'contact_integrations', 'webhook_integrations', 'api_keys', 'calls', 'import_tasks', 'message_jobs', 'campaign_messaging', 'campaign_protection', 'number_health_settings']) {
      expect(await count(table), table).toBe(table === 'campaigns' || table === 'api_keys' ? 1 : 0);
    }
  });
});

/**
 * A sub-user works inside the campaigns granted to it, but who speaks on their calls, from which
 * line and how much they may spend are the owner's (docs/api-conventions.md): each such field
 * changed by a sub-user is a 403 that leaves the row as it was, whole.
 */
describe('mass assignment by a sub-user', () => {
  const put = (id: number, headers: Record<string, string>, payload: Row) => t.request({ method: 'PUT', url: `/api/v1/campaigns/${id}`, headers, payload });

  it('changes none of the owner-only campaign settings, each refused with 403 naming it', async () => {
    const assistant = async (name: string) => (await t.request({ method: 'POST', url: '/api/v1/assistants', headers: owner.headers, payload: { name, provider: 'sim' } })).json().id as number;
    const [current, other] = [await assistant('Approved voice'), await assistant('Other voice')];
    const campaign = await createCampaignViaApi(t, owner.headers, {
      assistant_id: current, campaign_phone: '+14155550100', campaign_sip: 'sip:agent@example.com', max_call_attempts: 2, concurrent_call_limit: 1,
      limit_value: 10, limit_unit: 'contacts', limit_start: '2026-01-01T00:00:00Z', limit_end: '2026-12-31T00:00:00Z',
    });
    const sub = await createSubUser(t, owner.id, [campaign.id]);
    const changes: Row = {
      assistant_id: other, campaign_phone: '+14155550199', campaign_sip: 'sip:elsewhere@example.com',
      limit_value: 1e9, limit_unit: 'cost', limit_start: null, limit_end: null, max_call_attempts: 100, concurrent_call_limit: 10000,
    };
    const before = await readRow('campaigns', campaign.id);
    for (const [field, value] of Object.entries(changes)) {
      const res = await put(campaign.id, sub.headers, { [field]: value, title: 'Smuggled alongside' });
      expect(res.statusCode, field).toBe(403);
      expect(res.json().detail, field).toContain(field);
      expect(await readRow('campaigns', campaign.id), field).toEqual(before);
    }
    const all = await put(campaign.id, sub.headers, changes);
    expect(all.statusCode).toBe(403);
    expect(all.json().detail).toBe(`Only the account owner may change ${Object.keys(changes).join(', ')} of a campaign; a sub-user may not (ask the owner)`);
    expect(await readRow('campaigns', campaign.id)).toEqual(before);
  });

  it('lets a sub-user send back the values it read, and change the rest; the owner changes them all', async () => {
    const campaign = await createCampaignViaApi(t, owner.headers, { limit_value: 10, limit_unit: 'minutes', limit_start: '2026-01-01T00:00:00Z', max_call_attempts: 3 });
    const sub = await createSubUser(t, owner.id, [campaign.id]);
    const read = (await t.request({ method: 'GET', url: `/api/v1/campaigns/${campaign.id}`, headers: sub.headers })).json();
    const sentBack = { ...read, limit_start: '2026-01-01T01:00:00+01:00', title: 'Renamed by the sub-user', is_paused: true, call_interval: [30] };
    const res = await put(campaign.id, sub.headers, sentBack);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ title: 'Renamed by the sub-user', is_paused: true, call_interval: [30], limit_value: 10, max_call_attempts: 3 });
    const byOwner = await put(campaign.id, owner.headers, { limit_value: 20, max_call_attempts: 5, campaign_phone: '+14155550123' });
    expect(byOwner.json()).toMatchObject({ limit_value: 20, max_call_attempts: 5, campaign_phone: '+14155550123' });
  });
});
