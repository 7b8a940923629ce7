import multipart from '@fastify/multipart';
import type { App } from '../../app.ts';
import { createImportsRepository } from './imports.repository.ts';
import * as ops from './imports.operations.ts';
import { BULK_BODY_LIMIT, MAX_CSV_BYTES } from './imports.schemas.ts';
import { closingOnError } from './csv-upload-error.ts';
import { createBulkImport, importCsvUpload, listImportTasks, requireTask, toProgressWithErrors } from './imports.service.ts';

/** Bulk import and CSV upload (mounted at /api/v1/contacts; authenticated). */
export async function importsRoutes(app: App) {
  const { db } = app.deps;
  const repo = createImportsRepository(db);
  // Encapsulated here: only the CSV route accepts multipart bodies.
  await app.register(multipart, { limits: { fileSize: MAX_CSV_BYTES, files: 1, fields: 10, fieldSize: 1024 }, throwFileSizeLimit: true });

  app.post('/bulk', { schema: ops.BulkImportContacts, bodyLimit: BULK_BODY_LIMIT }, async (request) =>
    createBulkImport({ db, repo, principal: request.principal, items: request.body }));
  app.get('/bulk', { schema: ops.ListImportTasks }, async (request) =>
    listImportTasks(repo, request.principal, request.query));
  app.get('/bulk/:task_id', { schema: ops.ReadImportTask }, async (request) =>
    toProgressWithErrors(await requireTask(repo, request.principal, request.params.task_id)));
  // The multipart body is read as a stream by the service; the schema documents it.
  app.post('/import/csv', { schema: ops.ImportCsv, validatorCompiler: () => () => true }, async (request, reply) =>
    closingOnError(reply, () => importCsvUpload({
      db,
      repo,
      principal: request.principal,
      query: request.query as Record<string, string>,
      parts: request.isMultipart() ? request.parts() : null,
    })));
}
