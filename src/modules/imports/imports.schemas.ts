import { CONTACT_DATA_LIMIT_NOTE } from '../../shared/contact-data-limit.ts';
import { Type, type Static } from 'typebox';
import { DateTime, Id, Limit, Nullable, Skip, StringEnum } from '../../http/schemas.ts';
import { ContactStatus } from '../contacts/contacts.schemas.ts';

/** Decided limits (the API leaves them open); repeated in the OpenAPI descriptions. */
export const MAX_BULK_ITEMS = 10_000;
// 10,000 items with a few kB of contact_data each; a larger body is a 413 before parsing.
export const BULK_BODY_LIMIT = 32 * 1024 * 1024;
export const MAX_CSV_BYTES = 512 * 1024 * 1024;
/** Rows per stored chunk = rows per worker transaction. */
export const CHUNK_ROWS = 5000;

export const BulkItem = Type.Object({
  phone_number: Type.String({ maxLength: 64, description: 'any common format; stored as E.164 (numbers without + are read in DEFAULT_COUNTRY); an invalid number fails this row only' }),
  campaign_id: Type.Unsafe<number>({ ...Id, description: 'a campaign the caller may use; another account\'s campaign rejects the whole request with 403' }),
  status: Type.Optional({ ...ContactStatus, default: 'new' }),
  contact_data: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true, description: `${CONTACT_DATA_LIMIT_NOTE} (loc body, <index>, contact_data); nothing of the request is imported` }))),
});
export type BulkItem = Static<typeof BulkItem>;
export const BulkBody = Type.Array(BulkItem, { description: `at most ${MAX_BULK_ITEMS} items per request (more: 413)` });

const TaskStatus = StringEnum(['pending', 'running', 'completed', 'failed'] as const, {
  description: 'pending (stored, waiting for a worker), running, completed, failed (see failure_reason)',
});

export const ImportColumn = Type.Object({
  header: Type.String({ description: 'the header as written in the file' }),
  key: Type.String({ description: 'its key in contact_data' }),
});

const Columns = Nullable(Type.Array(ImportColumn), {
  description: 'a CSV import\'s data columns in file order, header as written -> contact_data key (the phone and time-zone columns are not stored in contact_data); null for a bulk import, and for a CSV import stored before columns were kept',
});

export const TaskCreated = Type.Object({
  task_id: Type.Integer(),
  status: TaskStatus,
  total: Type.Integer({ description: 'rows stored for import' }),
  columns: Columns,
});

export const ImportRowError = Type.Object({
  index: Type.Integer({ description: '0-based position in the request array, or data row of the CSV (header excluded)' }),
  phone_number: Type.String({ description: 'the phone number as given' }),
  reason: Type.String({ description: 'why the row was skipped or failed, for people: a row it names counts from 1 ("duplicate of row 1" is the row of index 0)' }),
});

const progressFields = {
  task_id: Type.Integer(),
  kind: Type.Union([Type.Literal('bulk'), Type.Literal('csv')]),
  status: TaskStatus,
  total: Type.Integer(),
  processed: Type.Integer({ description: 'rows looked at so far: created + skipped + failed' }),
  created: Type.Integer({ description: 'contacts created' }),
  skipped: Type.Integer({ description: 'duplicates of an existing contact of the campaign or of an earlier row' }),
  failed: Type.Integer({ description: 'rows that could not be imported (invalid phone number or time zone)' }),
  error_count: Type.Integer({ description: 'all skipped and failed rows, including those beyond the stored errors' }),
  file_name: Nullable(Type.String()),
  created_at: DateTime,
  started_at: Nullable(DateTime),
  finished_at: Nullable(DateTime),
  failure_reason: Nullable(Type.String()),
};

export const TaskProgress = Type.Object({
  ...progressFields,
  columns: Columns,
  errors: Type.Array(ImportRowError, { description: 'the first 1000 skipped or failed rows, in row order per batch' }),
});

export const TaskList = Type.Object({
  data: Type.Array(Type.Object(progressFields)),
  count: Type.Integer(),
});

export const TaskListQuery = Type.Object({ skip: Skip, limit: Limit(100) });
export const TaskParams = Type.Object({ task_id: Id });
