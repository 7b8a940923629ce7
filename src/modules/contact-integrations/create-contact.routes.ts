import type { FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import { createContactIntegrationsRepository } from './contact-integrations.repository.ts';
import * as ops from './contact-integrations.operations.ts';
import { createContactsFromRequest, type CreateContactRequest } from './create-contact.service.ts';

const BODY_LIMIT = 256 * 1024;

// Parameters are read by the service (query, JSON or form body, per-item errors in array mode); the schemas document them.
const acceptAnyInput = () => () => true;

/** The integration-token create-contact endpoint (mounted at /api/v1/contact-creation-integration; token authentication). */
export async function createContactRoutes(app: App) {
  const { db, config, clock } = app.deps;
  const repo = createContactIntegrationsRepository(db);

  // Contact rows carry status as text; the response schema serialises them as the API's enum.
  const handle = async (request: FastifyRequest): Promise<never> =>
    (await createContactsFromRequest({ db, repo, clock, defaultCountry: config.DEFAULT_COUNTRY, dialerWake: app.deps.dialerWake, request: readRequest(request) })) as never;

  app.get('/create-contact', { schema: ops.CreateContactFromQuery, validatorCompiler: acceptAnyInput }, handle);
  app.post('/create-contact', { schema: ops.CreateContactsFromBody, validatorCompiler: acceptAnyInput, bodyLimit: BODY_LIMIT }, handle);
}

function readRequest(request: FastifyRequest): CreateContactRequest {
  const post = request.method === 'POST';
  return {
    post,
    bearer: /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? null,
    json: post && (request.headers['content-type'] ?? '').includes('json'),
    query: (request.query ?? {}) as Record<string, unknown>,
    body: post ? request.body : undefined,
    log: request.log,
  };
}
