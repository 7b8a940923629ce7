import type { Config } from '../../config.ts';
import type { Db } from '../../db/connection.ts';
import { unprocessable } from '../../http/errors.ts';
import { requirePhone } from '../../shared/phone.ts';
import { templateProblem } from '../../voice/call-template.ts';
import { isVendorName, vendor, vendorSettingsMissing } from '../../voice/vendors.ts';
import { findVoiceConnection } from '../voice-connections/voice-connections.repository.ts';
import type { AssistantValues } from './assistants.repository.ts';

/**
 * The checks an assistant's whole settings pass when saved (create, or the stored row merged
 * with an update), so a call never finds an assistant it cannot place: 422 naming the field.
 */

const bad = (field: string, msg: string) => unprocessable(['body', field], msg);

const TEMPLATE_FIELDS = ['first_message', 'system_prompt', 'voicemail_message'] as const;

export async function checkAssistant(db: Db, config: Config, ownerId: number, v: AssistantValues): Promise<AssistantValues> {
  for (const field of TEMPLATE_FIELDS) {
    const text = v[field];
    const problem = text === null ? null : templateProblem(text);
    if (problem) throw bad(field, problem);
  }
  if (v.voicemail_action === 'leave_message' && !v.voicemail_message) throw bad('voicemail_message', 'required when voicemail_action is leave_message');
  const transfer = v.transfer_number === null ? null : requirePhone(v.transfer_number, config.DEFAULT_COUNTRY, ['body', 'transfer_number']).e164;

  let connectionAgent: string | null = null;
  if (v.voice_connection_id !== null) {
    // Another account's connection reads exactly like an unknown one: its existence is not ours to reveal.
    const connection = await findVoiceConnection(db, v.voice_connection_id);
    if (!connection || connection.owner_id !== ownerId) throw bad('voice_connection_id', `no voice connection ${v.voice_connection_id} in this account`);
    if (connection.provider !== v.provider) {
      throw bad('voice_connection_id', `voice connection ${connection.id} is a ${connection.provider} connection; this assistant's provider is ${v.provider}`);
    }
    connectionAgent = connection.agent_id;
  } else if (isVendorName(v.provider)) {
    const missing = vendorSettingsMissing(config, v.provider);
    if (missing.length > 0) {
      throw bad('provider', `${v.provider} is not configured on this service (${missing.join(' and ')} unset): name a voice_connection_id of your own ${v.provider} credentials`);
    }
  }
  if (isVendorName(v.provider)) {
    const problem = vendor(v.provider).assistantProblem?.({ config, providerAssistantId: v.provider_assistant_id, connectionAgentId: connectionAgent }) ?? null;
    if (problem) throw bad(problem.field, problem.message);
  }
  return { ...v, transfer_number: transfer };
}
