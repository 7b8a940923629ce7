import { Type } from 'typebox';
import { Detail, ErrorResponses, IdParams } from '../../../http/schemas.ts';
import {
  BULK_BODY_LIMIT, BULK_TASK_WAIT_MS, BulkSuppressionBody, LookupQuery, LookupResult, MAX_BULK_SUPPRESSIONS, MAX_CSV_BYTES, Suppression, SuppressionCreate,
  SuppressionList, SuppressionsQuery, SuppressionTask, SuppressionTaskParams,
} from './suppressions.schemas.ts';

/** The OpenAPI description of each suppressions operation; suppressions.routes.ts registers them. */

const tags = ['suppressions'];
const RULES =
  'The account\'s do-not-call list: one row per number, stored in E.164 (numbers without + are read in DEFAULT_COUNTRY). ' +
  'A suppression applies until its expires_at (none = for ever); an expired one is kept but stops nothing. ' +
  'The owner and its sub-users list, look up and add (a sub-user adds to its owner\'s list); only the owner removes. ' +
  'Another account\'s suppression is 403, an unknown id 404.';
const EFFECT =
  'Adding a number moves the account\'s contacts with that number, except those in progress, to do_not_disturb with next_action_time null ' +
  'and next_action_reason "suppressed: <reason or source> (do-not-call list, suppression <id>)", in the same transaction. ' +
  'While it applies, contacts created with the number (POST /api/v1/contacts/, bulk and CSV imports, the contact-creation integration, inbound calls) ' +
  'are created do_not_disturb with that reason whatever status was asked, and are never queued; so is a contact whose phone_number is changed to it.';
const UPSERT =
  'Idempotent by number: adding a listed number again answers the same row (same id, created_at and created_by), with its reason replaced when one is given ' +
  'and its expires_at set to the one given (omitted = never), so it applies again if it had expired.';

export const ListSuppressions = {
  operationId: 'list_suppressions',
  tags,
  summary: 'List suppressed numbers',
  description: `Newest first. By default only suppressions that apply now (include_expired=true adds the expired ones). phone_number is an exact match after normalisation. ${RULES}`,
  querystring: SuppressionsQuery,
  response: { 200: SuppressionList, ...ErrorResponses },
} as const;

export const AddSuppression = {
  operationId: 'add_suppression',
  tags,
  summary: 'Add a number to the do-not-call list',
  description: `source is manual (default) or integration; import and opt_out are set by the service. expires_at must be in the future (422 naming it otherwise, and nothing changes). ${UPSERT} ${EFFECT} ${RULES}`,
  body: SuppressionCreate,
  response: { 200: Suppression, ...ErrorResponses },
} as const;

export const LookupSuppression = {
  operationId: 'lookup_suppression',
  tags,
  summary: 'Is this number suppressed?',
  description: `The number is normalised as on addition (422 when it is not a phone number). suppressed is true when a suppression of the caller's account applies now; an expired one answers suppressed false and suppression null. ${RULES}`,
  querystring: LookupQuery,
  response: { 200: LookupResult, ...ErrorResponses },
} as const;

export const RemoveSuppression = {
  operationId: 'remove_suppression',
  tags,
  summary: 'Remove a number from the do-not-call list',
  description: `Account owner only (a sub-user: 403). Contacts the suppression moved to do_not_disturb stay so; changing their status is up to the owner. ${RULES}`,
  params: IdParams,
  response: { 200: Type.Object({ message: Type.String() }), ...ErrorResponses },
} as const;

const TASK_NOTE =
  'Stored as a task and applied by a background worker in batches of 1000 (each batch with its suppressions and contact changes in one transaction). ' +
  `The request waits up to ${BULK_TASK_WAIT_MS / 1000} s for the task to end and answers it with its counters and the first 1000 row errors; ` +
  'a task that has not ended by then (no worker free) is answered as it stands, status pending or running, and goes on until its status is completed or failed. Every row is checked on its own: an invalid number, an expires_at not in the future or a reason over 500 characters fails that row ' +
  'only (errors: index, phone number as given, reason) and the valid rows are added, with source import. A number repeated in the task is added once (the last row wins). ' +
  `The task stays readable at GET /api/v1/suppressions/bulk/{task_id}. ${UPSERT} ${EFFECT}`;

export const BulkAddSuppressions = {
  operationId: 'bulk_add_suppressions',
  tags,
  summary: 'Add many numbers as a tracked task',
  description: `A JSON array of {phone_number, reason?, expires_at?}, at most ${MAX_BULK_SUPPRESSIONS} items (413 above; a body over ${BULK_BODY_LIMIT / 1024 / 1024} MiB is also 413). ${TASK_NOTE} ${RULES}`,
  body: BulkSuppressionBody,
  response: { 200: SuppressionTask, ...ErrorResponses, 413: Detail },
} as const;

export const ImportSuppressionsCsv = {
  operationId: 'import_suppressions_csv',
  tags,
  summary: 'Add numbers from a CSV upload as a tracked task',
  description:
    `multipart/form-data with one file part. The header line names the columns, matched case-insensitively with spaces and punctuation ignored: phone_number (or phone) is required (422 without it), ` +
    `reason and expires_at are optional; other columns are ignored. Delimiter (comma, semicolon, tab, pipe) detected from the header, or named by Excel's \`sep=;\` first line; UTF-8 with or without BOM. ` +
    `At most ${MAX_BULK_SUPPRESSIONS} data rows and ${MAX_CSV_BYTES / 1024 / 1024} MiB (413 above, and nothing is added). Row index in errors = data row, 0-based, header excluded. ${TASK_NOTE} ${RULES}`,
  consumes: ['multipart/form-data'],
  body: Type.Object({ file: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: 'the CSV file' }) }),
  response: { 200: SuppressionTask, ...ErrorResponses, 413: Detail },
} as const;

export const ReadSuppressionTask = {
  operationId: 'read_suppression_task',
  tags,
  summary: 'Progress of a bulk or CSV suppression task',
  description: 'Counters, timestamps and the first 1000 failed rows. A task whose request answered before it ended (status pending or running) is applied by a background worker; ' +
    'read it here until its status is completed or failed. Another account\'s task is 403 (and, for a sub-user, a task another person started).',
  params: SuppressionTaskParams,
  response: { 200: SuppressionTask, ...ErrorResponses },
} as const;
