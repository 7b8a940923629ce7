import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { providerFor, requestedUrl } from '../../voice/registry.ts';
import { VENDORS } from '../../voice/vendors.ts';
import type { Route } from '../../voice/registry.ts';

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
 * and only a call of that route in progress is accepted; a bad one is answered 403 or 404 and
 * nothing is read. Frames go to this process's listeners of the call (deps.callAudio).
 */
export function attachMediaSockets(app: App, callIsOnRoute: OnRoute): void {
  const deps = app.deps;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!request.url?.startsWith(MEDIA_PATH)) return;
    upgrade(deps, sockets, callIsOnRoute, request, socket, head).catch((error: Error) => {
      app.log.error({ err: error }, 'media socket handshake failed');
      refuse(socket, 500, 'Internal Server Error');
    });
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('onClose', async () => {
    app.server.off('upgrade', onUpgrade);
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  });
}

async function upgrade(deps: Deps, sockets: WebSocketServer, callIsOnRoute: OnRoute, request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const base = deps.config.PUBLIC_BASE_URL;
  const query = new URL(request.url!, 'http://media').searchParams;
  const callId = /^\d{1,15}$/.test(query.get('call') ?? '') ? Number(query.get('call')) : null;
  const connection = query.get('connection');
  const connectionId = connection === null ? null : /^\d{1,15}$/.test(connection) ? Number(connection) : NaN;
  if (!base || callId === null || Number.isNaN(connectionId)) return refuse(socket, 404, 'Not Found');
  const route = { provider: 'twilio', connectionId };
  const provider = twilio.adapterOf(await providerFor(deps, route).catch(() => null));
  if (!provider) return refuse(socket, 404, 'Not Found');
  const signedUrl = requestedUrl(base, request.url!).replace(/^http/, 'ws');
  if (!provider.verifyHandshake(signedUrl, request.headers['x-twilio-signature'])) return refuse(socket, 403, 'Forbidden');
  if (!(await callIsOnRoute(deps, callId, route))) return refuse(socket, 404, 'Not Found');
  sockets.handleUpgrade(request, socket, head, (ws) => relayMedia(deps, ws, callId));
}

function relayMedia(deps: Deps, ws: WebSocket, callId: number): void {
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
      deps.callAudio.publish(callId, track, Buffer.from(message.media.payload, 'base64'));
    } else if (message.event === 'stop') {
      deps.callAudio.ended(callId);
    }
  });
  ws.on('error', (error) => deps.log.warn({ err: error }, 'media socket error'));
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
