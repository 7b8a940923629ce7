import type { WebSocket } from 'ws';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { VENDORS } from '../../voice/vendors.ts';
import { attachTwilioSockets } from './twilio-socket.ts';
import type { AgentBrain } from './agent-brain.ts';
import { loadCallScript, type CallScript } from './call-script.ts';
import { markConsent } from '../privacy/recording-consent/call-recordings.ts';
import { providerFor } from '../../voice/registry.ts';
import { saveConversation, type ConversationUpdate } from './conversation-store.ts';
import { whisperedMessages } from '../calls/call-controls.repository.ts';
import { LlmBrain } from './llm-brain.ts';
import { RelaySession } from './relay-session.ts';
import { ScriptedBrain } from './scripted-brain.ts';
import { insertCallProgress } from '../live/live-events.repository.ts';
import { redactionAt } from '../privacy/redaction-policy/call-redaction.ts';
import { redactTurns } from '../privacy/redaction-policy/redact-call-events.ts';

const twilio = VENDORS.twilio.agent;
const RELAY_PATH = `${twilio.path}/relay`;
/** Twilio's messages are small (a caller's sentence); anything near this is not Twilio. */
const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * The ConversationRelay WebSocket at /api/v1/voice/twilio/relay?call=<id>. The handshake is
 * verified (X-Twilio-Signature over the URL, with the call's route's auth token) before the
 * socket opens; a bad one is answered 403 and the socket closed, nothing read or written.
 */
export function attachRelaySockets(app: App): void {
  const deps = app.deps;
  const brain: AgentBrain = deps.config.LLM_BASE_URL
    ? new LlmBrain({ baseUrl: deps.config.LLM_BASE_URL, apiKey: deps.config.LLM_API_KEY, model: deps.config.LLM_MODEL })
    : new ScriptedBrain();
  attachTwilioSockets(app, {
    path: RELAY_PATH, name: 'relay', maxPayload: MAX_MESSAGE_BYTES,
    async accept({ callId, route }) {
      const script = await loadCallScript(deps, callId);
      if (!script || script.status !== 'in progress' || script.route.provider !== 'twilio' || script.route.connectionId !== route.connectionId) return null;
      return (ws) => converse(deps, ws, new RelaySession(script, brain, relayOut(deps, ws, script), deps.config.LLM_MODEL ?? null));
    },
  });
}

function converse(deps: Deps, ws: WebSocket, session: RelaySession): void {
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      deps.log.warn('relay: a message that is not JSON');
      return;
    }
    const problem = session.handle(message);
    if (problem) deps.log.warn({ problem }, 'relay: a message this agent does not understand');
  });
  ws.on('close', () => session.closed());
  ws.on('error', (error) => deps.log.warn({ err: error }, 'relay socket error'));
}

/**
 * Tokens go out at once; saves run one after another, off the caller's path. Each save holds
 * the whole transcript: the turns it adds are told to the live stream (a turn is complete when
 * saved: the caller's when heard, the agent's when spoken or cut short by the caller).
 */
function relayOut(deps: Deps, ws: WebSocket, script: CallScript) {
  const { callId } = script;
  let saving: Promise<void> = Promise.resolve();
  let told = 0;
  const tell = async (update: ConversationUpdate) => {
    const turns = update.transcript?.slice(told).filter((t) => t.text !== '') ?? [];
    told = Math.max(told, update.transcript?.length ?? 0);
    if (turns.length === 0) return;
    const at = deps.clock.now().toISOString();
    await insertCallProgress(deps.db, turns.map((t) => ({ callId, type: 'call.turn', data: { at, role: t.role, text: t.text } })));
    deps.live.wake();
  };
  return {
    send(message: object) {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    },
    save(update: ConversationUpdate) {
      saving = saving.then(async () => {
        // The agent answers from what it heard; what is kept and shown is redacted by the call's rule.
        const redactor = update.transcript ? await redactionAt(deps.db, callId, 'transcript') : null;
        const kept = redactor ? { ...update, transcript: redactTurns(redactor, update.transcript!) } : update;
        await saveConversation(deps.db, callId, kept);
        await tell(kept);
      }).catch((error: Error) => deps.log.error({ err: error, callId }, 'could not save the agent\'s conversation'));
      return saving;
    },
    guidance: () => whisperedMessages(deps.db, callId),
    async recording({ start, consent, callSid }: { start: boolean; consent: boolean | null; callSid: string }) {
      const begin = async () => {
        const provider = await providerFor(deps, script.route);
        if (!provider.startRecording || !callSid) throw new Error(`${provider.name} cannot start a recording of a call in progress`);
        await provider.startRecording(callSid, callId);
      };
      try {
        // The recording first: the person is already talking.
        await Promise.all([start ? begin() : null, consent !== null ? markConsent(deps.db, callId, consent) : null]);
      } catch (error) {
        // The call goes on: unrecorded is what the rule allows when in doubt.
        deps.log.error({ err: error, callId }, 'could not start the call\'s recording');
      }
    },
  };
}
