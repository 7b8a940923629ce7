import { setTimeout as delay } from 'node:timers/promises';
import { announceJobs, type JobWakes } from '../../../claim-worker.ts';
import { recordAudit, type AuditRequest } from '../../audit/audit.service.ts';
import type { Db } from '../../../db/connection.ts';
import { forbidden, HttpError, notFound, unprocessable } from '../../../http/errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { normaliseHeader } from '../../imports/csv-columns.ts';
import { openCsv } from '../../imports/csv-reader.ts';
import { csvUploadError, uploadFileName } from '../../imports/csv-upload-error.ts';
import { unstorable } from '../../../http/json-body.ts';
import { malformedMultipart, type UploadPart } from '../../imports/imports.service.ts';
import * as tasks from './suppression-imports.repository.ts';
import { SUPPRESSION_IMPORTS_CHANNEL } from './suppression-imports.worker.ts';
import { BULK_TASK_WAIT_MS, MAX_BULK_SUPPRESSIONS, type BulkSuppressionItem, type SuppressionTask } from './suppressions.schemas.ts';
import { creatorOf } from './suppressions.service.ts';

/**
 * Bulk additions to the do-not-call list as tracked tasks. The request stores the rows with the
 * task and announces it; the suppression import worker (suppression-imports.worker.ts, run by every
 * `serve` and `worker` process) applies them. The request then waits for the task to end, reading
 * its row, and answers it; after BULK_TASK_WAIT_MS it answers the task as it stands (pending or running),
 * and GET /api/v1/suppressions/bulk/{task_id} shows the rest.
 */

/** The first look at the task comes soon (small lists end in milliseconds); later ones spread out. */
const FIRST_POLL_MS = 10;
const MAX_POLL_MS = 200;

interface Deps {
  db: Db;
  /** Wakes this process's worker; NOTIFY reaches the others. */
  jobWakes: JobWakes;
  /**
   * How long to wait for the task before answering it as it stands. By default BULK_TASK_WAIT_MS
   * when this process runs the suppression import worker (every `serve` does), else none: no worker
   * here is woken, so waiting would only hold the request (a test app runs no workers).
   */
  waitMs?: number;
}

const tooMany = (n: number) =>
  new HttpError(413, `A bulk addition takes at most ${MAX_BULK_SUPPRESSIONS} numbers per request; this one has ${n}. Split it into several requests.`);

export async function createBulkSuppressionImport(input: Deps & { principal: Principal; items: BulkSuppressionItem[]; request?: AuditRequest }) {
  if (input.items.length > MAX_BULK_SUPPRESSIONS) throw tooMany(input.items.length);
  const rows = input.items.map((i): tasks.StoredSuppressionRow => [i.phone_number, i.reason ?? null, i.expires_at ?? null]);
  return storeAndWait(input, 'bulk', null, rows);
}

async function storeAndWait(input: Deps & { principal: Principal; request?: AuditRequest }, kind: 'bulk' | 'csv', fileName: string | null, rows: tasks.StoredSuppressionRow[]) {
  const { db, principal, request } = input;
  const creator = creatorOf(principal);
  const requestedBy: tasks.RequestedBy = { principal, ip: request?.ip ?? null, user_agent: request?.headers?.['user-agent'] ?? null };
  const task = await tasks.insertImportTask(db, {
    ownerId: principal.ownerId, userId: creator.created_by_user_id, subUserId: creator.created_by_sub_user_id, kind, fileName, rows, requestedBy,
    // An empty task ends as it is stored: its event is written here, the worker never sees it.
    audit: (trx, id) => recordAudit(trx, {
      principal, request, kind: 'suppression.added', subject: { type: 'suppression', id: null },
      details: { import_task_id: id, kind, file_name: fileName, rows: 0, added: 0, failed: 0 },
    }),
  });
  if (rows.length > 0) await announceJobs(db, input.jobWakes, SUPPRESSION_IMPORTS_CHANNEL);
  return toTask(await waitForEnd(db, task.id, input.waitMs ?? (input.jobWakes.listening(SUPPRESSION_IMPORTS_CHANNEL) ? BULK_TASK_WAIT_MS : 0)));
}

/** Reads the task until it has ended or `waitMs` has passed; never applies a row itself. */
async function waitForEnd(db: Db, taskId: number, waitMs: number): Promise<TaskRow> {
  const deadline = Date.now() + waitMs;
  for (let pause = FIRST_POLL_MS; ; pause = Math.min(pause * 2, MAX_POLL_MS)) {
    const row = await tasks.findImportTask(db, taskId);
    if (!row) throw notFound('Suppression import task');
    const left = deadline - Date.now();
    if (row.status === 'completed' || row.status === 'failed' || left <= 0) return row;
    await delay(Math.min(pause, left));
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
      fileName = uploadFileName(part.filename);
      rows = await readCsvRows(part.file);
    }
  } catch (error) {
    // The multipart parser's own complaints (no boundary, a truncated body) are the client's.
    throw malformedMultipart(error) ?? error;
  }
  // Stored only once the whole body has been read: a broken upload adds nothing.
  if (rows !== null) return storeAndWait(input, 'csv', fileName, rows);
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
      // The rows are stored as one jsonb value, which refuses a NUL or a lone surrogate (that was a 500).
      const bad = cells.findIndex((c) => unstorable(c) !== null);
      if (bad !== -1) throw unprocessable(['body', 'file'], `Row ${rows.length + 1}, column ${bad + 1}: ${unstorable(cells[bad])!.msg}`, 'csv_invalid');
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
