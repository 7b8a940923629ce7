import type { Deps } from '../../deps.ts';
import type { InboundText } from '../../messaging/text-channel.ts';

/**
 * Inbound texts from every vendor: threaded to the contact by number and campaign number,
 * stored, and answered. (First version: logged only; the conversation work fills this in.)
 */
export async function receiveText(deps: Deps, text: InboundText): Promise<{ messageId: number; contactId: number } | null> {
  deps.log.info({ provider: text.provider, from: text.from, to: text.to }, 'inbound text not threaded yet');
  return null;
}
