import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithAccounts, createSubUser, type Account } from '../../../test/helpers/factories.ts';
import { seed } from '../../../test/helpers/seed.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

/** POST /api/v1/contacts/enqueue_calls: the dashboard's "Queue selected". */
let t: TestApp;
let alice: Account;
let bob: Account;
beforeAll(async () => {
  ({ t, alice, bob } = await appWithAccounts());
});
afterAll(async () => t?.close());

async function contacts(owner: Account, statuses: string[]) {
  const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner: { id: owner.id }, title: 'Q' }] });
  const { contacts: rows } = await seed(t.deps.db, {
    contacts: statuses.map((status, i) => ({ campaign: { id: campaign!.id, owner_id: owner.id }, phone_number: `+1212555${String(7000 + i + owner.id * 20).slice(-4)}`, status })),
  });
  return { campaignId: campaign!.id, ids: rows.map((r) => r.id) };
}

const queue = (headers: Record<string, string>, ids: number[]) =>
  t.request({ method: 'POST', url: '/api/v1/contacts/enqueue_calls', headers, payload: { contact_ids: ids } });
const statusOf = async (id: number) => (await t.deps.db.selectFrom('contacts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

describe('queueing chosen contacts', () => {
  it('queues the chosen contacts and leaves those the dialer never calls', async () => {
    const { ids } = await contacts(alice, ['new', 'finished', 'do_not_disturb', 'new']);
    const res = await queue(alice.headers, ids.slice(0, 3));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Queued 2 contacts', queued: [ids[0], ids[1]], not_queued: [ids[2]] });
    expect(await statusOf(ids[0]!)).toBe('added_to_queue');
    expect(await statusOf(ids[2]!)).toBe('do_not_disturb');
    expect(await statusOf(ids[3]!)).toBe('new');
  });

  it("queues nothing when one contact is another account's (403) or unknown (404)", async () => {
    const mine = await contacts(alice, ['new']);
    const theirs = await contacts(bob, ['new']);
    expect((await queue(alice.headers, [mine.ids[0]!, theirs.ids[0]!])).statusCode).toBe(403);
    expect((await queue(alice.headers, [mine.ids[0]!, 2 ** 40])).statusCode).toBe(404);
    expect(await statusOf(mine.ids[0]!)).toBe('new');
    expect(await statusOf(theirs.ids[0]!)).toBe('new');
  });

  it('lets a sub-user queue the contacts of its granted campaigns only', async () => {
    const granted = await contacts(alice, ['new']);
    const other = await contacts(alice, ['new']);
    const sub = await createSubUser(t, alice.id, [granted.campaignId]);
    expect((await queue(sub.headers, [other.ids[0]!])).statusCode).toBe(403);
    expect((await queue(sub.headers, [granted.ids[0]!])).statusCode).toBe(200);
    expect(await statusOf(granted.ids[0]!)).toBe('added_to_queue');
  });

  it('refuses an empty or oversized list with 422', async () => {
    expect((await queue(alice.headers, [])).statusCode).toBe(422);
    expect((await queue(alice.headers, Array.from({ length: 1001 }, (_, i) => i + 1))).statusCode).toBe(422);
  });
});
