import { Type } from 'typebox';
import type { App } from '../../app.ts';
import { forbidden, notFound } from '../../shared/errors.ts';
import { DateTime, Detail, ErrorResponses, IdParams, Nullable } from '../../shared/schemas.ts';
import type { Principal } from '../auth/principal.ts';
import { createApiKeyWithinCap, MAX_API_KEYS_PER_ACCOUNT } from './api-keys.service.ts';

const ApiKey = Type.Object({
  id: Type.Integer(),
  name: Nullable(Type.String()),
  masked_key: Type.String({ description: 'the first characters of the key followed by ****' }),
  created_at: DateTime,
  last_used_at: Nullable(DateTime),
});
const ApiKeyCreated = Type.Object({ ...ApiKey.properties, key: Type.String({ description: 'shown once; only its hash is stored' }) });

/** API keys belong to the account; sub-users cannot manage them. */
function ownerOf(p: Principal): number {
  if (p.kind !== 'user') throw forbidden();
  return p.userId;
}

export async function apiKeysRoutes(app: App) {
  const { db } = app.deps;

  app.get('/', { schema: { tags: ['api-keys'], summary: 'List API keys (masked)', response: { 200: Type.Array(ApiKey), 401: Detail, 403: Detail } } }, async (request) => {
    const rows = await db
      .selectFrom('api_keys')
      .select(['id', 'name', 'key_prefix', 'created_at', 'last_used_at'])
      .where('owner_id', '=', ownerOf(request.principal))
      .orderBy('id', 'desc')
      .execute();
    return rows.map(({ key_prefix, ...row }) => ({ ...row, masked_key: `${key_prefix}****` }));
  });

  app.post(
    '/',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Generate an API key',
        description: `The key is in the answer once; only a SHA-256 digest is stored. Send it as the X-API-Key header. An account holds at most ${MAX_API_KEYS_PER_ACCOUNT} keys: 409 beyond.`,
        body: Type.Object({ name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))) }, { description: 'optional; may be left out' }),
        response: { 200: ApiKeyCreated, ...ErrorResponses },
      },
    },
    async (request) => createApiKeyWithinCap(db, ownerOf(request.principal), request.body.name ?? null),
  );

  app.delete(
    '/:id',
    { schema: { tags: ['api-keys'], summary: 'Delete an API key (it stops working at once)', params: IdParams, response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses } } },
    async (request) => {
      const key = await db.selectFrom('api_keys').select(['id', 'owner_id']).where('id', '=', request.params.id).executeTakeFirst();
      if (!key) throw notFound('API key');
      if (key.owner_id !== ownerOf(request.principal)) throw forbidden();
      await db.deleteFrom('api_keys').where('id', '=', key.id).execute();
      return { message: 'API key deleted' };
    },
  );
}
