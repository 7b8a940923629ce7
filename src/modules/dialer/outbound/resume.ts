import { sql } from 'kysely';
import type { Deps } from '../../../deps.ts';
import { promptsOfCalls } from '../../campaigns/campaign-prompts.ts';

const PAGE = 1000;

/**
 * At start-up, calls left `in progress` by a stopped process are taken up again by a provider
 * whose calls live in the process (the simulator), from the facts stored with each call: its
 * number, contact data as dialled, the prompt version it recorded (its experiment variant's) and start. Without this, every restart of the
 * embedded service ended its simulated calls `failed` and spent an attempt of each contact.
 * Running it in several processes at once is harmless: a call's events are de-duplicated by id.
 */
export async function resumeInterruptedCalls(deps: Deps): Promise<number> {
  const provider = deps.voice;
  if (!provider.resumeCall) return 0;
  let resumed = 0;
  let after = 0;
  for (;;) {
    const calls = await deps.db
      .selectFrom('calls')
      .select(['id', 'campaign_id', 'from_number', 'to_number', 'contact_data', 'call_type', 'start_time', 'prompt_history_id'])
      .where('status', '=', 'in progress')
      .where('start_time', 'is not', null)
      // Only the calls of this provider: a vendor's calls go on at the vendor.
      .where(sql<string>`coalesce(provider, call_data->>'provider', ${deps.config.VOICE_PROVIDER}::text)`, '=', provider.name)
      .where('voice_connection_id', 'is', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    if (calls.length === 0) return resumed;
    const prompts = await promptsOfCalls(deps.db, calls.map((c) => ({ id: c.id, campaignId: c.campaign_id, promptHistoryId: c.prompt_history_id === null ? null : Number(c.prompt_history_id) })));
    for (const call of calls) {
      if (!call.to_number) continue;
      await provider.resumeCall(
        {
          callId: call.id, from: call.from_number, to: call.to_number, campaignId: call.campaign_id, prompt: prompts.get(call.id) ?? null,
          contactData: (call.contact_data as Record<string, unknown> | null) ?? {}, direction: call.call_type === 'inbound' ? 'inbound' : 'outbound',
        },
        call.start_time!,
      );
      resumed++;
    }
    after = calls.at(-1)!.id;
  }
}
