import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { App } from '../../app.ts';
import type { Deps } from '../../deps.ts';
import { providerFor, requestedUrl, type Route } from '../../voice/registry.ts';
import { VENDORS } from '../../voice/vendors.ts';

const twilio = VENDORS.twilio.agent;

/** A handshake whose X-Twilio-Signature held: our call id and the route whose auth token signed it. */
export interface SignedHandshake {
  callId: number;
  route: Route;
  /** The socket URL's query, as signed. */
  query: URLSearchParams;
}

/**
 * A WebSocket Twilio opens to us at `path`?call=<id>[&connection=<id>] (ConversationRelay, Media
 * Streams). The handshake is verified (X-Twilio-Signature over the URL as the TwiML or the API gave
 * it, with the route's auth token) before anything else; `accept` then says whether the call may
 * have this socket (its handler) or not (null: 404). A bad handshake is answered 403 or 404 and
 * the socket closed, nothing read or written.
 */
export function attachTwilioSockets(app: App, options: {
  path: string;
  name: string;
  maxPayload: number;
  accept: (handshake: SignedHandshake) => Promise<((ws: WebSocket) => void) | null>;
}): void {
  const deps = app.deps;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!request.url?.startsWith(options.path)) return;
    upgrade(deps, request, options.accept).then((handler) => {
      if (typeof handler === 'number') return refuse(socket, handler);
      sockets.handleUpgrade(request, socket, head, handler);
    }).catch((error: Error) => {
      app.log.error({ err: error }, `${options.name} socket handshake failed`);
      refuse(socket, 500);
    });
  };
  app.server.on('upgrade', onUpgrade);
  app.addHook('onClose', async () => {
    app.server.off('upgrade', onUpgrade);
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  });
}

/** The socket's handler, or the status to refuse it with. */
async function upgrade(deps: Deps, request: IncomingMessage, accept: (handshake: SignedHandshake) => Promise<((ws: WebSocket) => void) | null>) {
  const base = deps.config.PUBLIC_BASE_URL;
  const query = new URL(request.url!, 'http://socket').searchParams;
  const callId = /^\d{1,15}$/.test(query.get('call') ?? '') ? Number(query.get('call')) : null;
  const connection = query.get('connection');
  const connectionId = connection === null ? null : /^\d{1,15}$/.test(connection) ? Number(connection) : NaN;
  if (!base || callId === null || Number.isNaN(connectionId)) return 404;
  const route: Route = { provider: 'twilio', connectionId };
  const provider = twilio.adapterOf(await providerFor(deps, route).catch(() => null));
  if (!provider) return 404;
  // Twilio signs the socket's URL as it was given: ws:// or wss://.
  const signedUrl = requestedUrl(base, request.url!).replace(/^http/, 'ws');
  if (!provider.verifyHandshake(signedUrl, request.headers['x-twilio-signature'])) return 403;
  return (await accept({ callId, route, query })) ?? 404;
}

const REASONS: Record<number, string> = { 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error' };

function refuse(socket: Duplex, status: number): void {
  socket.end(`HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
