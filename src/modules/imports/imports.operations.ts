import { Type } from 'typebox';
import { Detail, ErrorResponses, Id } from '../../http/schemas.ts';
import { BULK_BODY_LIMIT, BulkBody, MAX_BULK_ITEMS, MAX_CSV_BYTES, TaskCreated, TaskList, TaskListQuery, TaskParams, TaskProgress } from './imports.schemas.ts';

/** The OpenAPI description of each import operation; imports.routes.ts registers them. */

const TASK_NOTE = `The rows are stored with the task before the answer, then a background worker imports them in batches of 5000.
Each row: the phone is normalised to E.164 (numbers without + are read in DEFAULT_COUNTRY); a row that is not a phone
number fails alone; a duplicate of an existing contact of the campaign or of an earlier row is skipped. A row without a
time zone gets its number's, as POST /api/v1/contacts/ gives it: the zone of its prefix when that is a single zone, else null. Contacts get
creation_method import and, when their campaign has auto_calls, those with status new are queued for calling at once. Follow the task with
GET /api/v1/contacts/bulk/{task_id}. A restarted service resumes a task where it stopped (no row twice, none lost),
however long it was down. A task taken over 5 times without progress (it fails every worker), or a CSV upload that sends
no data for 15 minutes, is ended failed with a failure_reason.`;

const CsvForm = Type.Object({
  file: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: `the CSV file, at most ${MAX_CSV_BYTES / 1024 / 1024} MiB; send it as the last part` }),
  campaign_id: Id,
  phone_column: Type.Optional(Type.String({ default: 'phone', description: 'header of the phone column (exact, else case-insensitive, else its contact_data key: phone_number finds "Phone Number")' })),
  timezone_column: Type.Optional(Type.String({ description: 'header of a column of IANA zones stored in the contact\'s timezone (matched like phone_column); an invalid zone fails that row, an empty cell takes the number\'s zone' })),
});

export const BulkImportContacts = {
  operationId: 'bulk_import_contacts',
  tags: ['contacts'],
  summary: 'Bulk import contacts as a background task',
  description: `At most ${MAX_BULK_ITEMS} items per request (413 above; a body over ${BULK_BODY_LIMIT / 1024 / 1024} MiB is also 413).
The whole request is checked first: a campaign of another account is 403 and an unknown campaign 404, and then nothing is written.
Answers at once with {task_id, status, total, columns: null}. ${TASK_NOTE}`,
  body: BulkBody,
  response: { 200: TaskCreated, ...ErrorResponses, 413: Detail },
} as const;

export const ListImportTasks = {
  operationId: 'list_import_tasks',
  tags: ['contacts'],
  summary: 'List import tasks',
  description: 'The account\'s bulk and CSV import tasks, newest first (a sub-user sees the tasks it started). Row errors and CSV columns are only in the single-task answer.',
  querystring: TaskListQuery,
  response: { 200: TaskList, 401: Detail, 422: ErrorResponses[422] },
} as const;

export const ReadImportTask = {
  operationId: 'read_import_task',
  tags: ['contacts'],
  summary: 'Progress of an import task',
  description: 'Counters, timestamps, the first 1000 skipped or failed rows with their index, phone and reason, and a CSV import\'s columns (header as written -> contact_data key). Another account\'s task is 403.',
  params: TaskParams,
  response: { 200: TaskProgress, ...ErrorResponses },
} as const;

export const ImportCsv = {
  operationId: 'import_csv',
  tags: ['contacts'],
  summary: 'Import contacts from a CSV upload',
  description: `multipart/form-data with the fields campaign_id, phone_column (default phone), optional timezone_column,
and the file. Send the fields before the file part (they may also be given as query parameters). The delimiter (comma, semicolon,
tab or pipe) is detected from the header line, or named by Excel's \`sep=;\` first line (which is then not the header); UTF-8 with or without BOM; quoted fields may hold delimiters, quotes and newlines.
A row whose other columns come to more than 64 KiB of contact_data (as JSON text) fails alone, saying so in the task's errors.
Every other column goes into contact_data under a key made from its header: lower case, and each run of characters other
than letters, digits and _ (spaces, hyphens, dots...) becomes one _, none at either end (' First Name ' -> first_name,
'E-mail' -> e_mail); a header with no letter or digit becomes column_<position, from 1>. Headers that give the same key keep
both: the first has the key, each later one the first free suffix _2, _3... that no other header's key is (Name, name -> name, name_2). The answer's columns
lists every such header as written with its key, and so does GET /api/v1/contacts/bulk/{task_id}. phone_column and
timezone_column match a header exactly, else case-insensitively, else by this key. Cells beyond the header are ignored. A header
holding a NUL character or a lone surrogate is 422. The file is parsed while
it uploads and never held in memory; the answer comes when it has been stored: {task_id, status, total, columns}. File limit
${MAX_CSV_BYTES / 1024 / 1024} MiB (413 above, and nothing is imported). Row index in errors = data row number, 0-based, header excluded. ${TASK_NOTE}`,
  consumes: ['multipart/form-data'],
  body: CsvForm,
  response: { 200: TaskCreated, ...ErrorResponses, 413: Detail },
} as const;
