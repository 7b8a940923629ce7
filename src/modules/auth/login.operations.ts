import { Type } from 'typebox';
import { Detail } from '../../http/schemas.ts';

/** The OpenAPI description of the login operation; login.routes.ts registers it. */

const LoginForm = Type.Object({
  // Bounded, and without NUL (PostgreSQL cannot compare it: it was a 500).
  username: Type.String({ maxLength: 320, pattern: '^[^\\u0000]*$', description: 'account e-mail, or a sub-user\'s username or e-mail' }),
  password: Type.String({ maxLength: 1024 }),
  grant_type: Type.Optional(Type.String({ pattern: '^password$' })),
  scope: Type.Optional(Type.String()),
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
});
const Token = Type.Object({ access_token: Type.String(), token_type: Type.Literal('bearer') });

export const LogIn = {
  operationId: 'log_in',
  tags: ['login'],
  summary: 'Log in (OAuth 2.0 password flow)',
  description:
    'Form-encoded `username` (e-mail) and `password`; no scopes or client id. Answers a JWT bearer token valid for ACCESS_TOKEN_EXPIRE_MINUTES. Wrong credentials or an inactive account: 400. ' +
    'Failed logins are throttled per 15-minute window: after LOGIN_MAX_FAILURES wrong passwords (default 10) for one name from one address (an IPv6 client: its /64), or ten times as many from one address over all names (attempts are counted before the password is checked, so parallel attempts get no more), ' +
    'the login answers 429 with Retry-After (seconds until the window ends) without checking the password. A successful login clears its name\'s count.',
  consumes: ['application/x-www-form-urlencoded'],
  body: LoginForm,
  response: { 200: Token, 400: Detail, 429: Detail },
} as const;
