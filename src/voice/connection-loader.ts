import type { Config } from '../config.ts';
import type { Db } from '../db/connection.ts';
import type { SecretBox } from '../shared/secret-box.ts';
import { openVoiceConnection } from '../modules/voice-connections/voice-connections.repository.ts';
import type { ConnectionCredentials } from './registry.ts';
import { vendor } from './vendors.ts';

/**
 * An account's voice connection as an adapter's credentials: its secrets opened, the vendor's
 * base URL from the environment (a connection never names a host: no request of ours goes
 * where an account says), and empty pacing settings taking the vendor's defaults.
 */
export function connectionLoader(db: Db, secrets: SecretBox, config: Config) {
  return async (id: number): Promise<ConnectionCredentials | null> => {
    const opened = await openVoiceConnection(db, secrets, id);
    if (!opened) return null;
    const definition = vendor(opened.provider);
    const pacing = definition.defaultPacing(config);
    return {
      provider: opened.provider,
      ownerId: opened.owner_id,
      connectionId: opened.id,
      apiKey: opened.apiKey,
      accountSid: opened.accountSid,
      webhookSecret: opened.webhookSecret,
      baseUrl: definition.baseUrl(config),
      phoneNumberId: opened.phoneNumberId,
      agentId: opened.agentId,
      fromNumber: opened.fromNumber,
      maxConcurrent: opened.maxConcurrent ?? pacing.maxConcurrent,
      callsPerSecond: opened.callsPerSecond ?? pacing.callsPerSecond,
    };
  };
}
