import type { App } from '../../app.ts';
import { forbidden, notFound } from '../../shared/errors.ts';
import { Detail, ErrorResponses } from '../../shared/schemas.ts';
import { Me, User, UserCreate } from './users.schemas.ts';
import { createUser, findUserById } from './users.service.ts';

export async function usersRoutes(app: App) {
  const { db } = app.deps;

  app.get('/me', { schema: { tags: ['users'], summary: 'The calling account or sub-user', response: { 200: Me, 401: Detail } } }, async (request) => {
    const p = request.principal;
    if (p.kind === 'user') {
      const user = await findUserById(db, p.userId);
      if (!user) throw notFound('User');
      return { ...user, kind: 'user' as const, owner_id: user.id };
    }
    const sub = await db
      .selectFrom('sub_users')
      .select(['id', 'email', 'full_name', 'is_active', 'username', 'owner_id'])
      .where('id', '=', p.subUserId)
      .executeTakeFirstOrThrow();
    return { ...sub, is_superuser: false, kind: 'sub_user' as const };
  });

  app.post(
    '/',
    {
      schema: {
        tags: ['users'],
        summary: 'Create an account (superuser only)',
        body: UserCreate,
        response: { 200: User, ...ErrorResponses, 409: Detail },
      },
    },
    async (request) => {
      const p = request.principal;
      if (p.kind !== 'user' || !p.isSuperuser) throw forbidden();
      return createUser(db, request.body);
    },
  );
}
