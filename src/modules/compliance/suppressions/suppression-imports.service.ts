import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import type { Db } from '../../../db/connection.ts';
import { forbidden, HttpError, notFound, unprocessable } from '../../../http/errors.ts';
import { storableExcerpt, unstorable } from '../../../http/json-body.ts';
import { normalisePhone } from '../../../shared/phone.ts';
import type { Principal } from '../../auth/principal.ts';
import { normaliseHeader } from '../../imports/csv-columns.ts';
import { openCsv } from '../../imports/csv-reader.ts';
import { csvUploadError } from '../../imports/csv-upload-error.ts';
import { malformedMultipart, type UploadPart } from '../../imports/imports.service.ts';
import * as tasks from './suppression-imports.repository.ts';
import { upsertSuppressions, type SuppressionDraft } from './suppressions.repository.ts';
import { MAX_BULK_SUPPRESSIONS, MAX_REASON, type BulkSuppressionItem, type SuppressionTask } from './suppressions.schemas.ts';
import { checkExpiry, creatorOf } from './suppressions.service.ts';

/**
 * Bulk additions to the do-not-call list as tracked tasks. The rows are stored with the task,
 * then applied in batches of BATCH_ROWS, each batch in one transaction with the task's counters
 * and cursor. The request that stored the task runs it and answers when it has ended; its
 * progress stays readable at GET /api/v1/suppressions/bulk/{task_id}.
 */
export const BATCH_ROWS = 1000;

interface Deps {
  db: Db;
  defaultCountry: string;
  now: () => Date;
}

const tooMany = (n: number) =>
  new HttpError(413, `A bulk addition takes at most ${MAX_BULK_SUPPRESSIONS} numbers per request; this one has ${n}. Split it into several requests.`);

export async function createBulkSuppressionImport(input: Deps & { principal: Principal; items: BulkSuppressionItem[]; request?: AuditRequest }) {
  if (input.items.length > MAX_BULK_SUPPRESSIONS) throw tooMany(input.items.length);
  const rows = input.items.map((i): tasks.StoredSuppressionRow => [i.phone_number, i.reason ?? null, i.expires_at ?? null]);
  return storeAndRun(input, 'bulk', null, rows);
}

async function storeAndRun(input: Deps & { principal: Principal; request?: AuditRequest }, kind: 'bulk' | 'csv', fileName: string | null, rows: tasks.StoredSuppressionRow[]) {
  const creator = creatorOf(input.principal);
  const task = await tasks.insertImportTask(input.db, {
    ownerId: input.principal.ownerId, userId: creator.created_by_user_id, subUserId: creator.created_by_sub_user_id, kind, fileName, rows,
  });
  await runSuppressionImport({ ...input, taskId: task.id });
  const done = toTask((await tasks.findImportTask(input.db, task.id))!);
  // One event for the whole list: its task names every row and its errors.
  await recordAudit(input.db, {
    principal: input.principal, request: input.request, kind: 'suppression.added', subject: { type: 'suppression', id: null },
    details: { import_task_id: task.id, kind, file_name: fileName, rows: rows.length, added: done.added, failed: done.failed },
  });
  return done;
}

/** One stored row checked: a draft to add, or the reason it fails. */
function prepareRow(row: tasks.StoredSuppressionRow, deps: { defaultCountry: string; now: Date }): { draft: Omit<SuppressionDraft, 'source'> } | { error: string } {
  const [raw, reason, expiresAt] = row;
  const phone = normalisePhone(String(raw ?? ''), deps.defaultCountry);
  if (!phone) return { error: 'not a valid phone number' };
  const text = reason === null || reason.trim() === '' ? null : reason.trim();
  if (text !== null && text.length > MAX_REASON) return { error: `reason: at most ${MAX_REASON} characters` };
  if (text !== null && unstorable(text)) return { error: `reason: ${unstorable(text)!.msg}` };
  const expiry = checkExpiry(expiresAt === null || expiresAt.trim() === '' ? null : expiresAt.trim(), deps.now);
  if ('error' in expiry) return { error: `expires_at: ${expiry.error}` };
  return { draft: { phone_number: phone.e164, reason: text, expires_at: expiry.value } };
}

/**
 * Applies a pending task's rows batch by batch. Each batch locks the task and applies only where
 * the cursor still is, so two runners never apply a row twice. A failure ends the task failed
 * with the batches before it applied.
 */
export async function runSuppressionImport(input: Deps & { taskId: number }) {
  const { db, taskId } = input;
  const task = await tasks.claimImportTask(db, taskId);
  if (!task) return;
  const rows = task.rows as tasks.StoredSuppressionRow[];
  try {
    for (let start = task.next_index; start < rows.length; start += BATCH_ROWS) {
      const batch = rows.slice(start, start + BATCH_ROWS);
      const applied = await db.transaction().execute(async (trx) => {
        const locked = await tasks.lockImportTask(trx, taskId);
        if (!locked || locked.status !== 'running' || locked.next_index !== start) return false;
        const now = input.now();
        const errors: tasks.RowError[] = [];
        const drafts: SuppressionDraft[] = [];
        batch.forEach((row, i) => {
          const prepared = prepareRow(row, { defaultCountry: input.defaultCountry, now });
          if ('error' in prepared) errors.push({ index: start + i, phone_number: storableExcerpt(String(row[0] ?? '')), reason: prepared.error });
          else drafts.push({ ...prepared.draft, source: 'import', created_by_user_id: task.created_by_user_id, created_by_sub_user_id: task.created_by_sub_user_id });
        });
        await upsertSuppressions(trx, task.owner_id, drafts);
        const next = start + batch.length;
        await tasks.recordBatch(trx, {
          id: taskId, nextIndex: next, rowCount: batch.length, added: drafts.length, errors,
          room: Math.max(0, tasks.MAX_STORED_ERRORS - locked.error_count), done: next >= rows.length,
        });
        return true;
      });
      if (!applied) return;
    }
  } catch (error) {
    await tasks.failImportTask(db, taskId, 'the import stopped on an internal error; the rows before it were added');
    throw error;
  }
}

type TaskRow = NonNullable<Awaited<ReturnType<typeof tasks.findImportTask>>>;

function toTask(row: TaskRow): SuppressionTask {
  const { id, owner_id: _owner, created_by_sub_user_id: _sub, errors, ...rest } = row;
  return { task_id: id, ...rest, errors: errors as tasks.RowError[] };
}

/** A task the principal may see: 404 unknown, 403 another account's or another sub-user's. */
export async function readSuppressionImport(input: { db: Db; principal: Principal; taskId: number }) {
  const row = await tasks.findImportTask(input.db, input.taskId);
  if (!row) throw notFound('Suppression import task');
  if (row.owner_id !== input.principal.ownerId) throw forbidden();
  if (input.principal.kind === 'sub_user' && row.created_by_sub_user_id !== input.principal.subUserId) throw forbidden();
  return toTask(row);
}

const PHONE_HEADERS = ['phone_number', 'phone'];

/**
 * A CSV upload (multipart/form-data, one file part): a header line with a phone_number (or phone)
 * column, and optional reason and expires_at columns, matched by their key (case and separators
 * ignored: "Phone Number" is phone_number). Other columns are ignored.
 */
export async function importSuppressionCsv(input: Deps & { principal: Principal; parts: AsyncIterable<UploadPart> | null; request?: AuditRequest }) {
  if (!input.parts) throw unprocessable(['body'], 'Expected a multipart/form-data upload with a file part', 'multipart');
  let rows: tasks.StoredSuppressionRow[] | null = null;
  let fileName: string | null = null;
  try {
    for await (const part of input.parts) {
      if (part.type !== 'file' || rows !== null) continue;
      fileName = part.filename || null;
      rows = await readCsvRows(part.file);
    }
  } catch (error) {
    // The multipart parser's own complaints (no boundary, a truncated body) are the client's.
    throw malformedMultipart(error) ?? error;
  }
  // Stored only once the whole body has been read: a broken upload adds nothing.
  if (rows !== null) return storeAndRun(input, 'csv', fileName, rows);
  throw unprocessable(['body', 'file'], 'Field required', 'missing');
}

async function readCsvRows(file: AsyncIterable<Buffer>): Promise<tasks.StoredSuppressionRow[]> {
  const { records } = await openCsv(file).catch((error: unknown) => {
    throw csvUploadError(error);
  });
  const rows: tasks.StoredSuppressionRow[] = [];
  try {
    let header: string[] | null = null;
    let at = { phone: -1, reason: -1, expires: -1 };
    for await (const cells of records as AsyncIterable<string[]>) {
      if (header === null) {
        header = cells.map((h) => normaliseHeader(h.trim()));
        at = { phone: header.findIndex((h) => PHONE_HEADERS.includes(h)), reason: header.indexOf('reason'), expires: header.indexOf('expires_at') };
        if (at.phone === -1) throw unprocessable(['body', 'file'], `No phone_number column in the header (${cells.slice(0, 20).join(', ')})`, 'csv_invalid');
        continue;
      }
      if (rows.length >= MAX_BULK_SUPPRESSIONS) throw new HttpError(413, `A CSV upload takes at most ${MAX_BULK_SUPPRESSIONS} data rows; split the file`);
      const cell = (i: number) => (i === -1 ? null : (cells[i] ?? null));
      rows.push([cell(at.phone) ?? '', cell(at.reason), cell(at.expires)]);
    }
    if (header === null) throw unprocessable(['body', 'file'], 'The CSV file is empty: a header line is required', 'csv_invalid');
    return rows;
  } catch (error) {
    records.destroy();
    throw csvUploadError(error);
  }
}
