import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Bodies larger than this (by Content-Length), and multipart uploads, get the upload timeout. */
export const LARGE_BODY_BYTES = 1024 * 1024;

export interface RequestTimeouts {
  headersMs: number;
  requestMs: number;
  uploadMs: number;
}

/**
 * Node's own deadlines, given to Fastify's server: the request line and headers within `headersMs`,
 * the whole request within `uploadMs` (Node's requestTimeout: one value for every request, so the
 * longest any may take). Node looks for late requests every connectionsCheckingInterval (30 s by
 * default): a quarter of the shortest deadline, so a late one is closed soon after its time.
 */
export function serverTimeouts(t: RequestTimeouts) {
  return {
    requestTimeout: t.uploadMs,
    http: { headersTimeout: t.headersMs, requestTimeout: t.uploadMs, connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(Math.min(t.headersMs, t.requestMs) / 4))) },
  };
}

const hasBody = (raw: IncomingMessage) => raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
const isUpload = (raw: IncomingMessage) =>
  /^multipart\//i.test(raw.headers['content-type'] ?? '') || Number(raw.headers['content-length'] ?? 0) > LARGE_BODY_BYTES;

const TIMEOUT_ANSWER = (() => {
  const body = JSON.stringify({ detail: 'The request body took too long to arrive' });
  return `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
})();

/**
 * A body must arrive within `requestMs` of its headers, whatever route it goes to (an
 * unauthenticated vendor route included): a body sent a byte at a time held its socket for ever
 * (Fastify sets no requestTimeout, and Node's would be one value for uploads too). Uploads
 * (multipart, or over 1 MiB) are left to Node's requestTimeout, `uploadMs`: a CSV of hundreds of
 * MiB needs minutes on an ordinary link, and only authenticated routes take one (their
 * credentials are checked before the body is read). A late body is answered 408 and its
 * connection closed, as Node does.
 */
export function enforceBodyDeadline(app: FastifyInstance, requestMs: number): void {
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (!hasBody(raw) || isUpload(raw)) return done();
    const timer = setTimeout(() => {
      if (raw.complete) return;
      const socket = raw.socket;
      // An in-process request (app.inject) has a stand-in socket: no connection to free.
      if (typeof socket.destroySoon !== 'function') return;
      if (!reply.raw.headersSent && socket.writable) socket.end(TIMEOUT_ANSWER);
      socket.destroySoon();
      setTimeout(() => socket.destroy(), 1000).unref();
    }, requestMs);
    timer.unref();
    const clear = () => clearTimeout(timer);
    raw.once('end', clear);
    // The request's own close (its socket closing included), not the socket's: a kept-alive
    // socket carries many requests, and a listener per request on it would pile up.
    raw.once('close', clear);
    done();
  });
}
