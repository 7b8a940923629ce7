import type { Deps } from '../../../deps.ts';
import { conflict, forbidden, HttpError, notFound } from '../../../http/errors.ts';
import { speakTurn, SpeechUnavailableError } from '../../../shared/speech.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import { canAccessCampaign } from '../../campaigns/campaign-access.ts';
import { providerFor } from '../../../voice/registry.ts';
import { VENDORS } from '../../../voice/vendors.ts';
import { pcm16ToMulaw8k } from './mulaw-audio.ts';
import { PacedAudio } from './paced-audio.ts';
import { ListenSocketError, relayVendorSocket } from './vendor-socket.ts';
import { CallNotLiveError, VoiceProviderError, type LiveAudioSocket } from '../../../voice/provider.ts';

/**
 * An operator listening to a call in progress: the call's audio as mu-law 8 kHz, relayed by the
 * service (a vendor's media URL never reaches the browser). Who may: the owner, or a sub-user
 * granted the call's campaign; each listening is audited. Sources: the simulator's calls are
 * spoken from their live transcript turns (espeak-ng), as they come on the live stream, so a
 * listener on any process hears them; our agent's calls on Twilio fork their media stream to us;
 * Vapi's calls are heard through the call's listen socket, opened by the service per listener.
 */
export async function listenToCall(deps: Deps, principal: Principal, callId: number, request?: AuditRequest): Promise<PacedAudio> {
  const call = await deps.db.selectFrom('calls').select(['id', 'owner_id', 'campaign_id', 'status', 'provider', 'voice_connection_id', 'external_session_id']).where('id', '=', callId).executeTakeFirst();
  if (!call) throw notFound('Call');
  if (!(await canAccessCampaign(deps.db, principal, { id: Number(call.campaign_id), owner_id: Number(call.owner_id) }))) throw forbidden();
  if (call.status !== 'in progress') throw conflict(`Call ${callId} is not in progress (${call.status}): there is nothing to listen to`);
  const provider = call.provider ?? deps.config.VOICE_PROVIDER;
  const audit = () => recordAudit(deps.db, { principal, request, kind: 'call.listened', subject: { type: 'call', id: callId }, details: { campaign_id: Number(call.campaign_id), provider } });
  if (provider === 'twilio') {
    const providerCallId = call.external_session_id ?? await providerCallIdOf(deps, callId);
    if (!providerCallId) throw conflict(`Call ${callId} has no Twilio call yet: try again once it rings`);
    const audio = await listenToTwilioCall(deps, { callId, connectionId: call.voice_connection_id === null ? null : Number(call.voice_connection_id), providerCallId });
    await audit();
    return audio;
  }
  if (provider !== 'sim') {
    const providerCallId = call.external_session_id ?? await providerCallIdOf(deps, callId);
    if (!providerCallId) throw conflict(`Call ${callId} has no ${provider} call yet: try again once it rings`);
    const audio = await listenToVendorSocket(deps, { provider, connectionId: call.voice_connection_id === null ? null : Number(call.voice_connection_id), providerCallId });
    await audit();
    return audio;
  }
  if (!(await speechAvailable())) throw new HttpError(503, 'The simulator\'s calls are spoken by espeak-ng, which is not installed on this server (apt-get install espeak-ng)');
  await audit();
  return speakSimulatedCall(deps, callId);
}

async function providerCallIdOf(deps: Deps, callId: number): Promise<string | null> {
  const ref = await deps.db.selectFrom('call_provider_refs').select('provider_call_id').where('call_id', '=', callId).executeTakeFirst();
  return ref?.provider_call_id ?? null;
}

/**
 * Our agent's call on Twilio: the first listener in this process asks Twilio to fork the call's
 * audio to our media socket (a Media Stream named for this process, its URL naming it too), the
 * last one gone stops it. Twilio's socket may land on any process: the frames reach this one's
 * listeners through PostgreSQL when it lands elsewhere (media-bridge.ts).
 */
async function listenToTwilioCall(deps: Deps, input: { callId: number; connectionId: number | null; providerCallId: string }): Promise<PacedAudio> {
  const twilio = VENDORS.twilio.agent.adapterOf(await providerFor(deps, { provider: 'twilio', connectionId: input.connectionId }).catch(() => null));
  if (!twilio) throw new HttpError(503, 'The call\'s Twilio credentials are no longer configured');
  const node = deps.mediaBridge.node;
  const name = `listen-${input.callId}-${node}`;
  let detach = () => false;
  const unfollow = await deps.mediaBridge.follow();
  const audio = new PacedAudio(() => {
    unfollow();
    if (detach()) twilio.stopStream(input.providerCallId, name).catch((error: Error) => deps.log.warn({ err: error, callId: input.callId }, 'listen: stopping the media stream failed'));
  });
  const joined = deps.callAudio.listen(input.callId, audio);
  detach = joined.detach;
  if (joined.first) {
    try {
      await twilio.startStream(input.providerCallId, `${twilio.urls(input.callId).media}&node=${node}`, name);
    } catch (error) {
      audio.close();
      throw new HttpError(502, `Twilio refused to stream the call's audio: ${(error as Error).message}`);
    }
  }
  return audio;
}

/** A vendor with a listen socket (Vapi): the service opens it for each listener and relays it. */
async function listenToVendorSocket(deps: Deps, input: { provider: string; connectionId: number | null; providerCallId: string }): Promise<PacedAudio> {
  const vendor = await providerFor(deps, { provider: input.provider, connectionId: input.connectionId }).catch(() => null);
  if (!vendor) throw new HttpError(503, `The call's ${input.provider} credentials are no longer configured`);
  if (!vendor.liveAudio) throw conflict(`Listening is available for the simulator's calls, our agent's on Twilio and Vapi's; ${input.provider} has no live audio for its calls`);
  let source: LiveAudioSocket;
  try {
    source = await vendor.liveAudio(input.providerCallId);
  } catch (error) {
    if (error instanceof CallNotLiveError) throw conflict(`The voice vendor (${input.provider}) says the call is not live: ${error.message.slice(0, 300)}`);
    if (error instanceof VoiceProviderError) throw new HttpError(502, `The voice vendor (${input.provider}) refused to let this call be heard: ${error.message.slice(0, 300)}`);
    throw new HttpError(502, `The voice vendor (${input.provider}) did not answer: ${(error as Error).message.slice(0, 300)}`);
  }
  try {
    return await relayVendorSocket(source);
  } catch (error) {
    if (error instanceof ListenSocketError) throw new HttpError(502, `The voice vendor (${input.provider}): ${error.message}`);
    throw error;
  }
}

async function speechAvailable(): Promise<boolean> {
  try {
    await speakTurn({ role: 'assistant', text: '.' });
    return true;
  } catch (error) {
    if (error instanceof SpeechUnavailableError) return false;
    throw error;
  }
}

/** The simulated call's turns, spoken one after another as the live stream brings them; ends with the call. */
async function speakSimulatedCall(deps: Deps, callId: number): Promise<PacedAudio> {
  let unsubscribe = () => {};
  const audio = new PacedAudio(() => unsubscribe());
  let speaking: Promise<void> = Promise.resolve();
  unsubscribe = await deps.live.subscribe({
    accepts: (event) => event.callId === callId && (event.type === 'call.turn' || event.type === 'call.ended'),
    send: (event) => {
      speaking = speaking.then(async () => {
        if (event.type === 'call.ended') return audio.finish();
        const { pcm, rate } = await speakTurn({ role: String(event.data.role), text: String(event.data.text) });
        audio.push(pcm16ToMulaw8k(pcm, rate));
      }).catch((error: Error) => deps.log.warn({ err: error, callId }, 'listen: a turn could not be spoken'));
    },
  });
  // Ended between the check and the subscription: its end was not followed, so end here.
  const now = await deps.db.selectFrom('calls').select('status').where('id', '=', callId).executeTakeFirst();
  if (now?.status !== 'in progress') audio.finish();
  return audio;
}
