import type { WebSocket } from 'ws';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import type { Route } from '../../voice/registry.ts';
import { VENDORS } from '../../voice/vendors.ts';
import { attachTwilioSockets } from './twilio-socket.ts';

/** Whether our call belongs to the route whose credentials signed the handshake (the dialer's rule, given by twilio.routes.ts). */
type OnRoute = (deps: Deps, callId: number, route: Route) => Promise<boolean>;

const twilio = VENDORS.twilio.agent;
const MEDIA_PATH = `${twilio.path}/media`;
/** A media message is a 20 ms frame in base64 (about 300 bytes); anything near this is not Twilio. */
const MAX_MESSAGE_BYTES = 16 * 1024;

/**
 * The Media Stream WebSocket at /api/v1/voice/twilio/media?call=<id>: Twilio's copy of a call's
 * audio while an operator listens (started by modules/live/listen). The handshake is verified
 * (X-Twilio-Signature over the URL, with the call's route's auth token) before the socket opens,
 * and only a call of that route is accepted; a bad one is answered 403 or 404 and
 * nothing is read. Frames go to the listeners of the process that asked for the stream (its
 * `node`): here, or through PostgreSQL (deps.mediaBridge).
 */
export function attachMediaSockets(app: App, callIsOnRoute: OnRoute): void {
  const deps = app.deps;
  attachTwilioSockets(app, {
    path: MEDIA_PATH, name: 'media', maxPayload: MAX_MESSAGE_BYTES,
    accept: async ({ callId, route, query }) => ((await callIsOnRoute(deps, callId, route)) ? (ws) => relayMedia(deps, ws, callId, nodeOf(query)) : null),
  });
}

/** The process that asked for the stream (`node` in its URL, media-bridge.ts); null for a stream that names none. */
function nodeOf(query: URLSearchParams): string | null {
  const node = query.get('node');
  return node && /^[0-9a-f]{8}$/.test(node) ? node : null;
}

function relayMedia(deps: Deps, ws: WebSocket, callId: number, node: string | null): void {
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    let message: { event?: string; media?: { track?: string; payload?: string } };
    try {
      message = JSON.parse(data.toString());
    } catch {
      return;
    }
    if (message.event === 'media' && typeof message.media?.payload === 'string') {
      const track = message.media.track === 'inbound' ? 'inbound' : 'outbound';
      deps.mediaBridge.frame(node, callId, track, Buffer.from(message.media.payload, 'base64'));
    } else if (message.event === 'stop') {
      deps.mediaBridge.ended(node, callId);
    }
  });
  ws.on('error', (error) => deps.log.warn({ err: error }, 'media socket error'));
}
