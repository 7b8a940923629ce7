import type { Deps } from '../../deps.ts';
import type { TextProvider } from '../../messaging/text-channel.ts';

/**
 * Which vendor, credentials and sender carry a campaign's texts.
 * Today: the simulator (the embedded default), from the campaign's number.
 */
export interface TextRoute {
  provider: TextProvider;
  /** The voice connection whose credentials send (null: the service's settings or the simulator). */
  connectionId: number | null;
  /** The sender number (E.164), null when a Messaging Service picks it. */
  from: string | null;
}

export interface TextRouteInput {
  ownerId: number;
  campaignId: number;
  campaignPhone: string | null;
  messagingServiceSid: string | null;
}

export async function textRouteFor(deps: Deps, input: TextRouteInput): Promise<TextRoute> {
  return { provider: deps.texts.sim, connectionId: null, from: input.campaignPhone };
}
