import { sql } from 'kysely';
import { createTestApp, type TestApp } from './test-app.ts';
import { createAccount, type Account } from './factories.ts';
import { seed, type SeedCampaign } from './seed.ts';
import { SimProvider } from '../../src/voice/providers/sim.ts';
import { webhookSecret } from '../../src/voice/signature.ts';
import { runDialerRound } from '../../src/modules/dialer/dialer.worker.ts';
import type { StartCallRequest, VoiceProvider } from '../../src/voice/provider.ts';

/** A clock the test moves by hand; it must not run behind the database's own now(). */
export class FakeClock {
  constructor(private t: number) {}
  now = () => new Date(this.t);
  set(d: Date | string) {
    this.t = new Date(d).getTime();
  }
  advance(ms: number) {
    this.t += ms;
  }
}

export interface DialerHarness {
  t: TestApp;
  clock: FakeClock;
  sim: SimProvider;
  account: Account;
  campaign(fields?: Partial<SeedCampaign> & { phones?: string[]; owner_id?: number }): Promise<number>;
  contacts(campaignId: number, phones: string[], fields?: { status?: string; timezone?: string | null; contact_data?: Record<string, unknown>; owner_id?: number }): Promise<number[]>;
  enqueue(campaignId: number, headers?: Record<string, string>): Promise<{ statusCode: number; body: any }>;
  /**
   * One dialler round (sweep, claim, dial, reconcile); answers the calls it started in `campaignId`.
   * `voice` dials this round through another provider (one that refuses, say) without touching the app's.
   */
  round(campaignId?: number, options?: { voice?: VoiceProvider }): Promise<number>;
  /** Moves the clock and delivers the simulator's events that became due. */
  advance(ms: number): Promise<void>;
  contact(id: number): Promise<any>;
  callsOf(contactId: number): Promise<any[]>;
  close(): Promise<void>;
}

let numberSeq = 0;
/** Distinct valid US numbers (New York), unique per test process. */
export function usNumber(): string {
  numberSeq++;
  return `+1212555${String((process.pid * 7 + numberSeq) % 10000).padStart(4, '0')}`;
}

/** A harness voice that is the simulator telling `seen` of every call it is asked to start, before it starts it. */
export const seeingStarts = (seen: (req: StartCallRequest) => void) => (sim: SimProvider): VoiceProvider => {
  const startCall = sim.startCall.bind(sim);
  sim.startCall = async (req) => {
    seen(req);
    return startCall(req);
  };
  return sim;
};

export interface HarnessOverrides {
  /** The app's voice provider, made around the harness's simulator (default: the simulator itself). */
  voice?: (sim: SimProvider) => VoiceProvider;
}

export async function dialerHarness(start = '2030-01-07T15:00:00Z', env: Record<string, string> = {}, overrides: HarnessOverrides = {}): Promise<DialerHarness> {
  const clock = new FakeClock(Math.max(Date.parse(start), Date.now() + 1000));
  let sim!: SimProvider;
  const t = await createTestApp(env, {
    clock,
    voice: (config) => {
      sim = new SimProvider({ secret: webhookSecret(config), clock, timeScale: 1, seed: 7 });
      return overrides.voice ? overrides.voice(sim) : sim;
    },
  });
  // createTestApp gave the simulator its delivery (the events service, in-process); its events
  // are delivered when the test moves the clock (advance).
  const account = await createAccount(t);
  const db = t.deps.db;
  return {
    t, clock, sim, account,
    async campaign(fields = {}) {
      const { phones, owner_id, ...rest } = fields;
      const owner = { id: owner_id ?? account.id };
      const { campaigns: [row] } = await seed(db, {
        campaigns: [{ owner, title: 'Campaign', campaign_phone: '+12125550100', concurrent_call_limit: 0, ...rest }],
        phoneNumbers: (phones ?? []).map((p) => ({ owner, phone_number: p, campaign: 0 })),
      });
      return row.id;
    },
    async contacts(campaignId, phones, fields = {}) {
      const campaign = { id: campaignId, owner_id: fields.owner_id ?? account.id };
      const { contacts } = await seed(db, {
        contacts: phones.map((p) => ({
          campaign, phone_number: p, status: fields.status ?? 'new', timezone: fields.timezone ?? null, contact_data: fields.contact_data ?? {},
        })),
      });
      return contacts.map((r) => r.id);
    },
    async enqueue(campaignId, headers = account.headers) {
      const res = await t.request({ method: 'POST', url: `/api/v1/campaigns/enqueue_calls/${campaignId}`, headers });
      return { statusCode: res.statusCode, body: res.json() };
    },
    async round(campaignId, options = {}) {
      const count = async () => Number((await db.selectFrom('calls').select((eb) => eb.fn.countAll().as('n')).$if(campaignId !== undefined, (q) => q.where('campaign_id', '=', campaignId!)).executeTakeFirstOrThrow()).n);
      const before = await count();
      await runDialerRound(options.voice ? { ...t.deps, voice: options.voice } : t.deps);
      return (await count()) - before;
    },
    async advance(ms) {
      clock.advance(ms);
      await sim.pump();
    },
    contact: (id) => db.selectFrom('contacts').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    callsOf: (contactId) => db.selectFrom('calls').selectAll().where('contact_id', '=', contactId).orderBy('id').execute(),
    async close() {
      sim.close();
      await t.close();
    },
  };
}

export async function liveCalls(t: TestApp): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM calls WHERE status = 'in progress'`.execute(t.deps.db);
  return rows[0]!.n;
}
