import type { Config } from '../config.ts';
import type { ConnectionCredentials, ConnectionLoader } from './registry.ts';
import { vendor, type VendorName } from './vendors.ts';

/** A voice connection as its owner saved it, secrets opened; null pacing = the vendor's default. */
export interface OpenedConnection {
  id: number;
  owner_id: number;
  provider: VendorName;
  apiKey: string;
  accountSid: string | null;
  webhookSecret: string | null;
  phoneNumberId: string | null;
  agentId: string | null;
  fromNumber: string | null;
  maxConcurrent: number | null;
  callsPerSecond: number | null;
}

/**
 * An account's voice connection as an adapter's credentials: the vendor's base URL from the
 * environment (a connection never names a host: no request of ours goes where an account says),
 * and empty pacing settings taking the vendor's defaults. Reading the connection is the
 * composition root's to give (deps.ts: the voice-connections repository), so src/voice knows
 * no module.
 */
export function connectionLoader(open: (id: number) => Promise<OpenedConnection | null>, config: Config): ConnectionLoader {
  return async (id: number): Promise<ConnectionCredentials | null> => {
    const opened = await open(id);
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
