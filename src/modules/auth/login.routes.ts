import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { Detail } from '../../shared/schemas.ts';
import { loginWithPassword } from './login.service.ts';

const LoginForm = Type.Object({
  username: Type.String({ description: 'account e-mail, or a sub-user\'s username or e-mail' }),
  password: Type.String(),
  grant_type: Type.Optional(Type.String({ pattern: '^password$' })),
  scope: Type.Optional(Type.String()),
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
});
const Token = Type.Object({ access_token: Type.String(), token_type: Type.Literal('bearer') });

export async function loginRoutes(app: App) {
  app.post(
    '/login/access-token',
    {
      schema: {
        tags: ['login'],
        summary: 'Log in (OAuth 2.0 password flow)',
        description: 'Form-encoded `username` (e-mail) and `password`; no scopes or client id. Answers a JWT bearer token valid for ACCESS_TOKEN_EXPIRE_MINUTES. Wrong credentials or an inactive account: 400.',
        consumes: ['application/x-www-form-urlencoded'],
        body: LoginForm,
        response: { 200: Token, 400: Detail },
      },
    },
    async (request) => {
      const token = await loginWithPassword({ ...request.body, db: app.deps.db, tokens: app.deps.tokens });
      return { access_token: token, token_type: 'bearer' as const };
    },
  );
}
