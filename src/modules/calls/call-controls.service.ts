import type { Deps } from '../../deps.ts';
import { conflict, HttpError, unprocessable } from '../../http/errors.ts';
import { normalisePhone } from '../../shared/phone.ts';
import { CallNotLiveError, VoiceProviderError, type VoiceProvider } from '../../voice/provider.ts';
import { providerFor, VoiceNotConfiguredError } from '../../voice/registry.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import type { Principal } from '../auth/principal.ts';
import { addWhisper, clearOperatorAct, markOperatorAct, readControlledCall, removeWhisper, type ControlledCall } from './call-controls.repository.ts';
import { MAX_WHISPERS_PER_CALL } from './call-controls.schemas.ts';
import { requireCall } from './calls.service.ts';
import type { CallRecord } from './calls.repository.ts';
import { actorIds, type OperatorAct } from './operator-acts.ts';

/**
 * An operator steering a call in progress: end it, hand it to a person, or whisper guidance to
 * the AI. Each act is written to the call row first (guarded by `in progress` in the statement),
 * then asked of the vendor through the call's own route; a refusal takes the act back. The
 * vendor's end event arrives later, as for every call, and finishCalls applies the act to it.
 */
type ControlDeps = Pick<Deps, 'db' | 'config' | 'voice' | 'voices' | 'clock' | 'log'>;

interface ControlInput {
  deps: ControlDeps;
  principal: Principal;
  callId: number;
  request?: AuditRequest;
}

interface LiveCall {
  call: CallRecord;
  controlled: ControlledCall & { provider_call_id: string };
  provider: VoiceProvider;
}

const NOT_LIVE = (status: string) => conflict(`The call is not in progress (its status is '${status}'): only a call in progress can be ended, transferred or whispered to`);

/** The call, visible to the principal (404/403 as every call route), in progress, with the vendor that carries it. */
async function liveCall({ deps, principal, callId }: ControlInput): Promise<LiveCall> {
  const call = await requireCall(deps.db, principal, callId);
  const controlled = await readControlledCall(deps.db, callId, deps.config.VOICE_PROVIDER);
  if (!controlled || controlled.status !== 'in progress') throw NOT_LIVE(controlled?.status ?? call.status);
  if (!controlled.provider_call_id) throw conflict('The voice vendor has not accepted the call yet (it is being placed): try again in a moment');
  let provider: VoiceProvider;
  try {
    provider = await providerFor(deps, { provider: controlled.provider, connectionId: controlled.connection_id });
  } catch (error) {
    if (error instanceof VoiceNotConfiguredError) throw conflict(`The call's voice vendor cannot be reached from this service: ${error.message}`);
    throw error;
  }
  return { call, controlled: { ...controlled, provider_call_id: controlled.provider_call_id }, provider };
}

/**
 * The vendor's answer as the API's: over (or not held here) is a 409, a refusal a 502 with its
 * words; never a stack trace. The act is taken back on any failure, so a call the vendor did not
 * touch is never recorded as the operator's; after a lost answer the vendor may still have acted,
 * and the 502 says so (the call's end then carries the vendor's own reading).
 */
function vendorFailure(deps: ControlDeps, provider: VoiceProvider, callId: number, error: unknown): HttpError {
  if (error instanceof CallNotLiveError) return conflict(`The voice vendor (${provider.name}) says the call is not live: ${error.message.slice(0, 300)}`);
  const lost = !(error instanceof VoiceProviderError) || error.code === 'unavailable';
  if (lost) deps.log.warn({ err: error, callId, provider: provider.name }, 'a call control got no answer from the vendor');
  if (error instanceof VoiceProviderError && !lost) return new HttpError(502, `The voice vendor (${provider.name}) refused: ${error.message.slice(0, 300)}`);
  return new HttpError(502, `The voice vendor (${provider.name}) did not answer, so it may or may not have acted: read the call again, and try again while it is in progress`);
}

const cannot = (provider: VoiceProvider, what: string) =>
  conflict(`The voice vendor (${provider.name}) cannot ${what} a call in progress through its API`);

/** Marks the act, asks the vendor, takes the act back if the vendor refuses. */
async function act(input: ControlInput, live: LiveCall, act: OperatorAct, send: () => Promise<void>): Promise<void> {
  const { deps, callId } = input;
  if (!(await markOperatorAct(deps.db, callId, act))) {
    const now = await readControlledCall(deps.db, callId, deps.config.VOICE_PROVIDER);
    if (now && now.status !== 'in progress') throw NOT_LIVE(now.status);
    throw conflict('An operator has already ended or transferred this call');
  }
  try {
    await send();
  } catch (error) {
    await clearOperatorAct(deps.db, callId, act);
    throw vendorFailure(deps, live.provider, callId, error);
  }
}

export async function endCall(input: ControlInput): Promise<CallRecord> {
  const live = await liveCall(input);
  const at = input.deps.clock.now().toISOString();
  const controls = live.provider.controls;
  if (!controls) throw cannot(live.provider, 'end');
  await act(input, live, { action: 'end', ...actorIds(input.principal), at }, () => controls.end(live.controlled.provider_call_id));
  await recordAudit(input.deps.db, {
    principal: input.principal, request: input.request, kind: 'call.ended_by_operator', subject: { type: 'call', id: input.callId },
    details: { campaign_id: live.call.campaign_id, provider: live.provider.name },
  });
  return requireCall(input.deps.db, input.principal, input.callId);
}

export async function transferCall(input: ControlInput & { phoneNumber: string }): Promise<CallRecord> {
  // The schema took only E.164's shape; the number must also exist.
  const number = normalisePhone(input.phoneNumber, input.deps.config.DEFAULT_COUNTRY);
  if (!number || number.e164 !== input.phoneNumber) throw unprocessable(['body', 'phone_number'], `'${input.phoneNumber}' is not a valid phone number in E.164`, 'phone_number');
  const live = await liveCall(input);
  const transfer = live.provider.controls?.transfer;
  if (!transfer) throw cannot(live.provider, 'transfer');
  const at = input.deps.clock.now().toISOString();
  await act(input, live, { action: 'transfer', ...actorIds(input.principal), at, phone_number: number.e164 },
    () => transfer(live.controlled.provider_call_id, number.e164));
  await recordAudit(input.deps.db, {
    principal: input.principal, request: input.request, kind: 'call.transferred_by_operator', subject: { type: 'call', id: input.callId },
    details: { campaign_id: live.call.campaign_id, provider: live.provider.name, phone_number: number.e164 },
  });
  return requireCall(input.deps.db, input.principal, input.callId);
}

export async function whisperToCall(input: ControlInput & { message: string }): Promise<CallRecord> {
  const message = input.message.trim();
  if (!message) throw unprocessable(['body', 'message'], 'the message is blank', 'value_error');
  const live = await liveCall(input);
  // Our own agent reads the stored whispers itself; a vendor's AI hears them through its API.
  const whisper = live.provider.runsConversation ? null : live.provider.controls?.whisper;
  if (!live.provider.runsConversation && !whisper) throw cannot(live.provider, 'pass a message to the AI of');
  const stored = await addWhisper(input.deps.db, input.callId, { message, at: input.deps.clock.now().toISOString(), ...actorIds(input.principal) }, MAX_WHISPERS_PER_CALL);
  if (!stored) {
    const now = await readControlledCall(input.deps.db, input.callId, input.deps.config.VOICE_PROVIDER);
    if (now && now.status !== 'in progress') throw NOT_LIVE(now.status);
    throw conflict(`The call has had ${MAX_WHISPERS_PER_CALL} whispers, the most one call takes`);
  }
  if (whisper) {
    try {
      await whisper(live.controlled.provider_call_id, message);
    } catch (error) {
      await removeWhisper(input.deps.db, input.callId, stored.id);
      throw vendorFailure(input.deps, live.provider, input.callId, error);
    }
  }
  await recordAudit(input.deps.db, {
    principal: input.principal, request: input.request, kind: 'call.whispered', subject: { type: 'call', id: input.callId },
    details: { campaign_id: live.call.campaign_id, provider: live.provider.name, characters: message.length },
  });
  return requireCall(input.deps.db, input.principal, input.callId);
}
