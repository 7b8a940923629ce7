import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Errors Fastify and Node answer before a route's error handler runs, in the service's
 * `{detail}` shape like every other 4xx: a path segment with bad percent-encoding (400), a
 * path parameter longer than the router takes (414), a request line or headers over
 * Node's limit (431), a malformed request (400).
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const detail = error.code === 'FST_ERR_BAD_URL'
    ? 'The path is not valid percent-encoded UTF-8'
    : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'A path parameter is too long'
      : STATUS_CODES[status] ?? 'Bad Request';
  return reply.code(status).send({ detail });
}

/** Node's `clientError`: the request never became a request, so the answer is written to the socket. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, detail] = error.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'The request line and headers are larger than 16 KiB: send long filters in fewer, shorter parameters']
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request took too long to arrive']
      : [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
