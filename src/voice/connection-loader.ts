import type { Config } from '../config.ts';
import type { Db } from '../db/connection.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import { defaultPacing, type ConnectionCredentials } from './registry.ts';

/**
 * Reads an account's voice connection and opens its sealed secrets, for the adapter that
 * places its calls and checks its events. Empty pacing settings take the vendor's defaults.
 */
export function connectionLoader(db: Db, secrets: SecretBox, config: Config) {
  return async (id: number): Promise<ConnectionCredentials | null> => {
    const row = await db.selectFrom('voice_connections').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || (row.provider !== 'vapi' && row.provider !== 'retell')) return null;
    const pacing = defaultPacing(config, row.provider);
    return {
      provider: row.provider,
      ownerId: row.owner_id,
      connectionId: row.id,
      apiKey: secrets.open(row.api_key) ?? '',
      webhookSecret: secrets.open(row.webhook_secret),
      baseUrl: row.provider === 'vapi' ? config.VAPI_BASE_URL : config.RETELL_BASE_URL,
      phoneNumberId: row.phone_number_id,
      agentId: row.agent_id,
      fromNumber: row.from_number,
      maxConcurrent: row.max_concurrent_calls ?? pacing.maxConcurrent,
      callsPerSecond: row.calls_per_second ?? pacing.callsPerSecond,
    };
  };
}
