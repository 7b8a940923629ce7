import multipart from '@fastify/multipart';
import type { App } from '../../../app.ts';
import { closingOnError } from '../../imports/csv-upload-error.ts';
import * as ops from './suppressions.operations.ts';
import { BULK_BODY_LIMIT, MAX_CSV_BYTES } from './suppressions.schemas.ts';
import { createBulkSuppressionImport, importSuppressionCsv, readSuppressionImport } from './suppression-imports.service.ts';
import { addSuppression, listSuppressionsPage, lookupSuppression, removeSuppression } from './suppressions.service.ts';

/** The do-not-call list (mounted at /api/v1/suppressions; authenticated). */
export async function suppressionsRoutes(app: App) {
  const { db, config, clock, jobWakes } = app.deps;
  const defaultCountry = config.DEFAULT_COUNTRY;
  const now = () => clock.now();
  // Encapsulated here: only the CSV route accepts multipart bodies.
  await app.register(multipart, { limits: { fileSize: MAX_CSV_BYTES, files: 1, fields: 10, fieldSize: 1024 }, throwFileSizeLimit: true });

  app.get('/', { schema: ops.ListSuppressions }, async (request) =>
    listSuppressionsPage({ db, defaultCountry, now: now(), principal: request.principal, query: request.query }));
  app.post('/', { schema: ops.AddSuppression }, async (request) =>
    addSuppression({ db, defaultCountry, now: now(), principal: request.principal, body: request.body, request }));
  app.get('/lookup', { schema: ops.LookupSuppression }, async (request) =>
    lookupSuppression({ db, defaultCountry, now: now(), principal: request.principal, phoneNumber: request.query.phone_number }));
  app.delete('/:id', { schema: ops.RemoveSuppression }, async (request) =>
    removeSuppression({ db, principal: request.principal, id: request.params.id, request }));
  app.post('/bulk', { schema: ops.BulkAddSuppressions, bodyLimit: BULK_BODY_LIMIT }, async (request) =>
    createBulkSuppressionImport({ db, jobWakes, principal: request.principal, items: request.body, request }));
  app.get('/bulk/:task_id', { schema: ops.ReadSuppressionTask }, async (request) =>
    readSuppressionImport({ db, principal: request.principal, taskId: request.params.task_id }));
  // The multipart body is read as a stream by the service; the schema documents it.
  app.post('/import/csv', { schema: ops.ImportSuppressionsCsv, validatorCompiler: () => () => true }, async (request, reply) =>
    closingOnError(reply, () => importSuppressionCsv({ db, jobWakes, principal: request.principal, parts: request.isMultipart() ? request.parts() : null, request })));
}
