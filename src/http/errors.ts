/**
 * Errors the API shows to clients. One handler in app.ts maps them to responses:
 * `{detail: string}` for 4xx and `{detail: [{loc, msg, type}]}` for 422.
 */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : detail.map((d) => d.msg).join('; '));
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const forbidden = () => new HttpError(403, 'Not enough permissions');
export const conflict = (detail: string) => new HttpError(409, detail);
export const badRequest = (detail: string) => new HttpError(400, detail);
export const unauthorized = (detail = 'Not authenticated') =>
  new HttpError(401, detail, { 'www-authenticate': 'Bearer' });

/** A 422 for a value the schema accepted but the domain rejects (a bad phone number, say). */
export const unprocessable = (loc: (string | number)[], msg: string, type = 'value_error') =>
  new HttpError(422, [{ loc, msg, type }]);
