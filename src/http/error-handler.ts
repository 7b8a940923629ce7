import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.ts';
import { toValidationIssues } from './validation-errors.ts';

/** SQLSTATE of a statement stopped by statement_timeout. */
const QUERY_CANCELED = '57014';

/**
 * The one place errors become responses. Clients see FastAPI-style bodies; a 5xx
 * never shows its message, only the log does.
 */
export function handleError(error: FastifyError | HttpError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    return reply.code(error.statusCode).headers(error.headers).send({ detail: error.detail });
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    return reply.code(422).send({ detail: toValidationIssues(fe.validation as never, fe.validationContext ?? 'body') });
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
    return reply.code(422).send({ detail: [{ loc: ['body'], msg: `JSON decode error: ${fe.message}`, type: 'json_invalid' }] });
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    const sent = (request.headers['content-type'] ?? '').split(';')[0]!.trim() || 'none';
    return reply.code(415).send({ detail: `Content-Type ${sent} is not accepted here: send the body as application/json` });
  }
  if ((error as { code?: unknown }).code === QUERY_CANCELED) {
    // The request pool's statement_timeout (API_STATEMENT_TIMEOUT_MS) stopped one of its queries.
    request.log.warn({ url: request.routeOptions.url }, 'request stopped by the statement timeout');
    return reply.code(503).header('retry-after', '1').send({
      detail: 'This request\'s database work took longer than the service allows (API_STATEMENT_TIMEOUT_MS; REPORT_STATEMENT_TIMEOUT_MS for analytics reports) and was stopped; narrow it (filters, a smaller page) or retry shortly',
    });
  }
  const status = fe.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return reply.code(status).send({ detail: fe.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ detail: 'Internal Server Error' });
}
