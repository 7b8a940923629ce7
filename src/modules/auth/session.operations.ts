import { Type } from 'typebox';
import { Detail, Nullable } from '../../http/schemas.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE, SESSION_COOKIE } from './dashboard-session.ts';

/** The OpenAPI description of the dashboard session operations; session.routes.ts registers them. */

const tags = ['login'];
const HEADER_RULE = `A request authenticated by the \`${SESSION_COOKIE}\` cookie whose method is not GET, HEAD or OPTIONS must carry \`${CSRF_HEADER}: ${CSRF_HEADER_VALUE}\` (a header a cross-site form cannot send), else 403 and nothing changes; requests with an API key or a bearer token need no such header.`;

export const SessionPrincipal = Type.Object({
  kind: Type.Union([Type.Literal('user'), Type.Literal('sub_user')], { description: 'user = account owner; sub_user = a sub-user of owner_id' }),
  id: Type.Integer({ description: 'the account\'s or the sub-user\'s id' }),
  email: Nullable(Type.String()),
  username: Nullable(Type.String({ description: 'a sub-user\'s username; null for an account' })),
  full_name: Nullable(Type.String()),
  owner_id: Type.Integer({ description: 'the account the principal acts in (its own id for an account)' }),
  is_superuser: Type.Boolean(),
});

const SignInBody = Type.Object({
  // As the login form's: bounded, and without NUL.
  username: Type.String({ maxLength: 320, pattern: '^[^\\u0000]*$', description: 'account e-mail, or a sub-user\'s username or e-mail' }),
  password: Type.String({ maxLength: 1024 }),
});

export const SignIn = {
  operationId: 'sign_in',
  tags,
  summary: 'Sign in to the dashboard (cookie session)',
  description:
    `JSON \`{username, password}\`, checked and throttled exactly as \`POST /api/v1/login/access-token\` (same names, same 429 with Retry-After). ` +
    `On success sets the cookie \`${SESSION_COOKIE}=<token>; HttpOnly; SameSite=Strict; Path=/; Max-Age=<ACCESS_TOKEN_EXPIRE_MINUTES×60>\` (plus \`Secure\` over HTTPS, as seen through TRUST_PROXY) and answers who signed in. ` +
    `Wrong credentials or an inactive account: 401 with the login's message. The cookie then authenticates every operation beside X-API-Key and the bearer token (they take precedence when sent). ` +
    `This operation itself needs \`${CSRF_HEADER}: ${CSRF_HEADER_VALUE}\` (403 without it), so a cross-site form cannot sign a browser in. ${HEADER_RULE}`,
  security: [],
  body: SignInBody,
  response: { 200: SessionPrincipal, 401: Detail, 403: Detail, 429: Detail },
} as const;

export const ReadSession = {
  operationId: 'read_session',
  tags,
  summary: 'Who is signed in',
  description: `The principal the request is authenticated as (by the \`${SESSION_COOKIE}\` cookie, an API key or a bearer token); 401 when none, or when the session expired or was ended.`,
  response: { 200: SessionPrincipal, 401: Detail },
} as const;

export const SignOut = {
  operationId: 'sign_out',
  tags,
  summary: 'Sign out of the dashboard',
  description: `Ends the session of the \`${SESSION_COOKIE}\` cookie (the cookie is then refused everywhere with 401) and clears it (Max-Age=0). 204. ${HEADER_RULE}`,
  response: { 204: Type.Null({ description: 'Signed out' }), 401: Detail, 403: Detail },
} as const;
