import { requireContactDataSize } from '../../shared/contact-data-limit.ts';
import type { Db } from '../../db/connection.ts';
import { conflict, forbidden, HttpError, notFound, unprocessable } from '../../http/errors.ts';
import { unstorable } from '../../http/json-body.ts';
import type { Principal } from '../auth/principal.ts';
import { requireCampaign } from '../campaigns/campaign-access.ts';
import { mapColumns, normaliseHeader } from './csv-columns.ts';
import { openCsv } from './csv-reader.ts';
import { csvUploadError, uploadFileName } from './csv-upload-error.ts';
import type { CsvColumn } from './csv-columns.ts';
import type { ImportError, ImportsRepository, StoredRow } from './imports.repository.ts';
import { CHUNK_ROWS, MAX_BULK_ITEMS, type BulkItem } from './imports.schemas.ts';

const subUserOf = (p: Principal) => (p.kind === 'sub_user' ? p.subUserId : null);

/**
 * Stores a bulk import as a task and its rows, in one transaction, after checking every
 * campaign: nothing is written when any campaign is unknown (404) or not the caller's (403).
 */
export async function createBulkImport(input: { db: Db; repo: ImportsRepository; principal: Principal; items: BulkItem[] }) {
  const { db, repo, principal, items } = input;
  if (items.length > MAX_BULK_ITEMS) {
    throw new HttpError(413, `A bulk import takes at most ${MAX_BULK_ITEMS} items per request; this one has ${items.length}. Split it into several requests (each becomes its own task).`);
  }
  items.forEach((item, i) => requireContactDataSize(item.contact_data, ['body', i, 'contact_data']));
  for (const campaignId of new Set(items.map((i) => i.campaign_id))) await requireCampaign(db, principal, campaignId);
  return db.transaction().execute(async (trx) => {
    const task = await repo.insertTask(trx, { ownerId: principal.ownerId, subUserId: subUserOf(principal), kind: 'bulk', sealed: false });
    let seq = 0;
    for (let start = 0; start < items.length; start += CHUNK_ROWS, seq++) {
      const rows = items.slice(start, start + CHUNK_ROWS).map((i): StoredRow => [i.phone_number, i.campaign_id, i.status ?? 'new', (i.contact_data as Record<string, unknown> | undefined) ?? null, null]);
      await repo.insertChunk(trx, { taskId: task.id, seq, firstIndex: start, rows });
    }
    // One transaction: no sweeper can end this task before it is sealed.
    const sealed = (await repo.sealTask(trx, { taskId: task.id, total: items.length, chunkCount: seq }))!;
    return { task_id: sealed.id, status: sealed.status, total: sealed.total, columns: null };
  });
}

export interface CsvOptions {
  campaignId: number;
  phoneColumn: string;
  timezoneColumn: string | null;
  fileName: string | null;
}

/** A named column: exact header, else case-insensitive, else the same contact_data key (`first_name` finds `First Name`). */
const findColumn = (header: string[], name: string) => {
  const exact = header.indexOf(name);
  if (exact !== -1) return exact;
  const folded = header.findIndex((h) => h.toLowerCase() === name.toLowerCase());
  const key = normaliseHeader(name);
  return folded !== -1 || key === '' ? folded : header.findIndex((h) => normaliseHeader(h) === key);
};

/**
 * Imports a CSV upload as a task while it streams: rows are written in chunks as they are
 * parsed, and the task becomes claimable (sealed) when the file has ended. A failed or
 * oversized upload deletes the task, so nothing half-written is ever imported.
 */
export async function importCsv(input: { db: Db; repo: ImportsRepository; principal: Principal; options: CsvOptions; file: AsyncIterable<Buffer> }) {
  const { db, repo, principal, options } = input;
  await requireCampaign(db, principal, options.campaignId);
  const { records } = await openCsv(input.file).catch((error: unknown) => {
    throw csvUploadError(error);
  });
  const iterator = records[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let taskId: number | null = null;
  try {
    const first = await iterator.next();
    if (first.done) throw unprocessable(['body', 'file'], 'The CSV file is empty: a header line is required');
    const written = first.value;
    const header = written.map((h) => h.trim());
    const phoneAt = findColumn(header, options.phoneColumn);
    if (phoneAt === -1) throw unprocessable(['body', 'phone_column'], `Column '${options.phoneColumn}' is not in the header (${header.slice(0, 20).join(', ')})`);
    const tzAt = options.timezoneColumn === null ? -1 : findColumn(header, options.timezoneColumn);
    if (options.timezoneColumn !== null && tzAt === -1) throw unprocessable(['body', 'timezone_column'], `Column '${options.timezoneColumn}' is not in the header`);
    // The header as written is kept with the task (the answer's mapping), so it must be storable.
    const badHeader = written.findIndex((h) => unstorable(h) !== null);
    if (badHeader !== -1) throw unprocessable(['body', 'file'], `Header of column ${badHeader + 1}: ${unstorable(written[badHeader])!.msg}`, 'csv_invalid');
    const dataColumns = mapColumns(written, written.map((_, i) => i).filter((i) => i !== phoneAt && i !== tzAt));
    const columns = dataColumns.map(({ header, key }) => ({ header, key }));

    const task = await repo.insertTask(db, { ownerId: principal.ownerId, subUserId: subUserOf(principal), kind: 'csv', sealed: false, fileName: options.fileName, columns });
    taskId = task.id;
    let total = 0;
    let seq = 0;
    let batch: StoredRow[] = [];
    const flush = async () => {
      await repo.insertChunk(db, { taskId: task.id, seq, firstIndex: total - batch.length, rows: batch });
      seq++;
      batch = [];
    };
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      const cells = next.value;
      const data: Record<string, string> = {};
      for (const { key, index } of dataColumns) if (cells[index] !== undefined) data[key] = cells[index];
      const tz = tzAt === -1 ? '' : (cells[tzAt] ?? '').trim();
      batch.push([cells[phoneAt] ?? '', options.campaignId, 'new', data, tz === '' ? null : tz]);
      total++;
      if (batch.length >= CHUNK_ROWS) await flush();
    }
    if (batch.length > 0) await flush();
    const sealed = await repo.sealTask(db, { taskId: task.id, total, chunkCount: seq });
    if (!sealed) throw conflict('The upload stalled and was stopped before it completed; send the file again');
    return { task_id: sealed.id, status: sealed.status, total: sealed.total, columns };
  } catch (error) {
    records.destroy();
    if (taskId !== null) await repo.deleteTask(taskId);
    throw csvUploadError(error);
  }
}

/** The task if the principal may see it: 404 unknown, 403 another account's (or another sub-user's). */
export async function requireTask(repo: ImportsRepository, principal: Principal, taskId: number) {
  const task = await repo.findTask(taskId);
  if (!task) throw notFound('Import task');
  if (task.owner_id !== principal.ownerId) throw forbidden();
  if (principal.kind === 'sub_user' && task.created_by_sub_user_id !== principal.subUserId) throw forbidden();
  return task;
}

export function toProgress<T extends { id: number }>(task: T) {
  const { id, ...rest } = task;
  return { task_id: id, ...rest };
}

export function toProgressWithErrors<T extends { id: number; errors: unknown; columns: unknown }>(task: T) {
  return { ...toProgress(task), errors: task.errors as ImportError[], columns: task.columns as CsvColumn[] | null };
}

/** The import tasks the principal may see (a sub-user: those it started), newest first. */
export async function listImportTasks(repo: ImportsRepository, principal: Principal, query: { skip: number; limit: number }) {
  const { data, count } = await repo.listTasks({ ownerId: principal.ownerId, subUserId: subUserOf(principal), ...query });
  return { data: data.map(toProgress), count };
}

/** One part of a multipart upload, as @fastify/multipart yields them. */
export type UploadPart =
  | { type: 'field'; fieldname: string; value: unknown }
  | { type: 'file'; filename: string; file: AsyncIterable<Buffer> };

/**
 * A CSV upload: the fields (query parameters, then the form fields sent before the file)
 * give the options, and the first file part is imported while it streams. `parts` is null
 * when the request is not multipart/form-data.
 */
export async function importCsvUpload(input: { db: Db; repo: ImportsRepository; principal: Principal; query: Record<string, string>; parts: AsyncIterable<UploadPart> | null }) {
  const { db, repo, principal, parts } = input;
  if (!parts) throw unprocessable(['body'], 'Expected a multipart/form-data upload with a file part', 'multipart');
  const fields: Record<string, string> = { ...input.query };
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      const options = csvOptions(fields, uploadFileName(part.filename));
      // Later parts are drained by the multipart iterator; only the first file counts.
      return await importCsv({ db, repo, principal, options, file: part.file });
    }
  } catch (error) {
    throw malformedMultipart(error) ?? error;
  }
  throw unprocessable(['body', 'file'], 'Field required', 'missing');
}

/**
 * The multipart parser's own complaints (no boundary, a truncated body, a bad part header) are
 * the client's: a 422 saying what is wrong instead of a 500. importCsv has already removed the
 * task it started, so nothing is left behind.
 */
export function malformedMultipart(error: unknown): HttpError | null {
  if (error instanceof HttpError || (error as { statusCode?: number }).statusCode) return null;
  const message = error instanceof Error ? error.message : '';
  if (!/^(Multipart|Unexpected end of|Malformed|Part terminated)/i.test(message)) return null;
  return unprocessable(['body'], `Malformed multipart/form-data body: ${message}`, 'multipart');
}

function csvOptions(fields: Record<string, string>, fileName: string | null): CsvOptions {
  const raw = fields.campaign_id;
  if (raw === undefined) throw unprocessable(['body', 'campaign_id'], 'Field required (send it before the file part, or in the query)', 'missing');
  if (!/^\d{1,15}$/.test(raw.trim())) throw unprocessable(['body', 'campaign_id'], 'Input should be a valid integer', 'int_type');
  const tz = fields.timezone_column?.trim();
  return {
    campaignId: Number(raw.trim()),
    phoneColumn: fields.phone_column?.trim() || 'phone',
    timezoneColumn: tz ? tz : null,
    fileName,
  };
}
