import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app.ts';
import { createAccount, type Account } from './helpers/factories.ts';
import { seed } from './helpers/seed.ts';
import { down, up } from '../src/db/migrations/0023_next_action_code.ts';
import { sweepCampaignStates } from '../src/modules/dialer/outbound/sweep.ts';

/**
 * Migration 0023: contacts written before next_action_code existed get the code their sentence
 * was written with, so an upgrade keeps parked contacts revivable (the sweep now matches codes).
 */
let t: TestApp;
let owner: Account;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createAccount(t);
});
afterAll(() => t?.close());

/** The sentences the service wrote before the migration, and the code each must get. */
const WRITTEN_BEFORE: [string | null, string | null][] = [
  ['campaign paused', 'campaign_paused'],
  ['campaign archived', 'campaign_archived'],
  ['inbound campaign: it places no outbound calls', 'campaign_inbound'],
  ['campaign usage limit reached', 'usage_limit'],
  ['campaign paused: insufficient funds with the voice provider', 'insufficient_funds'],
  ['no calling window: the campaign schedule and allowed hours never open', 'no_window'],
  ['back in the queue: campaign paused no longer applies', 'requeued'],
  ['call 2 in progress', 'calling'],
  ['inbound call in progress', 'inbound_call'],
  ["retry 2 of 3 after 'voicemail' (call_interval 60 min); moved to the next calling window", 'retry_scheduled'],
  ['outside calling window; next opening 2030-01-08T14:00:00.000Z', 'outside_window'],
  ["frequency cap (3 calls per 24 hours, 7 per 7 days to this number across the account's campaigns); next allowed 2030-01-08T14:00:00.000Z", 'frequency_cap'],
  ['every number of the campaign reached its daily cap', 'caller_id_cap'],
  ['another call to this number is in progress', 'number_busy'],
  ['waiting for a free vapi line (vendor pacing)', 'vendor_pacing'],
  ['voice provider unavailable: vapi is not configured', 'vendor_pacing'],
  ['retell refused the call for its limits (429); retrying, attempt not counted', 'vendor_refused'],
  ['suppressed: lawyer letter (do-not-call list, suppression 4)', 'suppressed'],
  ['opted out on call 12: asked not to be called again', 'suppressed'],
  ['queued by campaign enqueue', 'queued'],
  ['auto_calls: queued on creation', 'queued'],
  ["'busy_or_rejected' and no attempts left (3 of 3)", 'completed'],
  ["last call 'finished'", 'completed'],
  ['call them after lunch', 'set_by_user'],
  [null, null],
];

describe('migration 0023_next_action_code', () => {
  it('gives every contact the code of the sentence it was written with, and parked contacts stay revivable', async () => {
    const { campaigns: [campaign] } = await seed(t.deps.db, { campaigns: [{ owner }] });
    const { contacts } = await seed(t.deps.db, {
      contacts: WRITTEN_BEFORE.map(([reason], i) => ({ campaign: campaign!, phone_number: `+1212555${5000 + i}`, status: 'awaiting_queue', next_action_reason: reason })),
    });
    await down(t.deps.db as never);
    await up(t.deps.db as never);
    const rows = await t.deps.db.selectFrom('contacts').select(['id', 'next_action_code']).where('campaign_id', '=', campaign!.id).orderBy('id').execute();
    expect(rows.map((r) => r.next_action_code)).toEqual(WRITTEN_BEFORE.map(([, code]) => code));

    // The campaign is reachable: the contacts parked for a campaign cause (or funds) are revived by code.
    await sweepCampaignStates({ deps: t.deps });
    const revived = await t.deps.db.selectFrom('contacts').select('id').where('campaign_id', '=', campaign!.id).where('status', '=', 'added_to_queue').orderBy('id').execute();
    expect(revived.map((r) => r.id)).toEqual(contacts.slice(0, 5).map((c) => c.id));
  });
});
