import { Type, type Static } from 'typebox';
import { DateTime, Id, Limit, Nullable, Skip, StringEnum } from '../../../http/schemas.ts';

/** Where a suppression came from: an API call (manual, integration), a bulk import, or an opt-out on a call. */
export const SUPPRESSION_SOURCES = ['manual', 'import', 'opt_out', 'integration'] as const;
export const SuppressionSource = StringEnum(SUPPRESSION_SOURCES, {
  description: 'manual or integration (POST /api/v1/suppressions/), import (bulk and CSV), opt_out (the person asked on a call)',
});
/** What an API caller may name as the source of one addition. */
export const ApiSuppressionSource = StringEnum(['manual', 'integration'] as const, { description: 'manual (default) or integration', default: 'manual' });

export const MAX_REASON = 500;
const PhoneInput = Type.String({ maxLength: 64, description: 'any common format; stored as E.164 (numbers without + are read in DEFAULT_COUNTRY)' });
const Reason = Type.String({ maxLength: MAX_REASON, description: 'free text, shown in the next_action_reason of the contacts it stops' });
const ExpiresAt = Nullable(Type.String({ format: 'date-time' }), {
  description: 'when the suppression stops applying; must be in the future; null or omitted = never',
});

export const SuppressionCreate = Type.Object({
  phone_number: PhoneInput,
  reason: Type.Optional(Nullable(Reason)),
  expires_at: Type.Optional(ExpiresAt),
  source: Type.Optional(ApiSuppressionSource),
});
export type SuppressionCreate = Static<typeof SuppressionCreate>;

export const CreatedBy = Nullable(
  Type.Object({
    user_id: Nullable(Type.Integer({ description: 'the account owner who added it' })),
    sub_user_id: Nullable(Type.Integer({ description: 'the sub-user who added it' })),
    email: Nullable(Type.String({ description: 'their e-mail (a sub-user may have none)' })),
  }),
  { description: 'who added the number; null when the service did (an opt-out on a call) or the person was deleted' },
);

export const Suppression = Type.Object({
  id: Type.Integer(),
  phone_number: Type.String({ description: 'E.164' }),
  reason: Nullable(Type.String()),
  source: SuppressionSource,
  call_id: Nullable(Type.Integer({ description: 'the call the person opted out on (source opt_out)' })),
  created_by: CreatedBy,
  created_at: DateTime,
  expires_at: Nullable(DateTime),
});
export type Suppression = Static<typeof Suppression>;

export const SuppressionList = Type.Object({
  data: Type.Array(Suppression),
  count: Type.Integer({ description: 'total number of matching suppressions, not the page size' }),
});

export const SuppressionsQuery = Type.Object({
  skip: Skip,
  limit: Limit(100),
  phone_number: Type.Optional(Type.String({ maxLength: 64, description: 'exact number, normalised to E.164 when it parses as one (else matched as written, so matches nothing)' })),
  source: Type.Optional(Type.Array(SuppressionSource, { description: 'any of these sources (repeated keys or a comma list)' })),
  include_expired: Type.Boolean({ default: false, description: 'also list suppressions whose expires_at has passed' }),
});
export type SuppressionsQuery = Static<typeof SuppressionsQuery>;

export const LookupQuery = Type.Object({ phone_number: PhoneInput });

export const LookupResult = Type.Object({
  phone_number: Type.String({ description: 'the number looked up, in E.164' }),
  suppressed: Type.Boolean({ description: 'true when an unexpired suppression lists the number' }),
  suppression: Nullable(Suppression, { description: 'the unexpired suppression; null when none (an expired one is not shown)' }),
});

/** Bulk additions. */
export const MAX_BULK_SUPPRESSIONS = 10_000;
export const BULK_BODY_LIMIT = 4 * 1024 * 1024;
/**
 * How long a bulk or CSV request waits for its task before answering it as it stands. The largest
 * list (MAX_BULK_SUPPRESSIONS rows) is applied in a few seconds, so this is only reached when no
 * worker is free or none runs; it stays under the 30 s that proxies commonly allow a request.
 */
export const BULK_TASK_WAIT_MS = 25_000;
export const MAX_CSV_BYTES = 16 * 1024 * 1024;

export const BulkSuppressionItem = Type.Object({
  phone_number: Type.String({ maxLength: 64, description: 'any common format; an invalid number fails this row only' }),
  reason: Type.Optional(Nullable(Reason)),
  expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time' }), { description: 'a past date-time fails this row only; null or omitted = never' })),
});
export type BulkSuppressionItem = Static<typeof BulkSuppressionItem>;
export const BulkSuppressionBody = Type.Array(BulkSuppressionItem, { description: `at most ${MAX_BULK_SUPPRESSIONS} items (more: 413)` });

const TaskStatus = StringEnum(['pending', 'running', 'completed', 'failed'] as const, {
  description: 'pending (stored), running, completed, failed (see failure_reason)',
});

export const SuppressionRowError = Type.Object({
  index: Type.Integer({ description: '0-based position in the request array, or data row of the CSV (header excluded)' }),
  phone_number: Type.String({ description: 'the phone number as given' }),
  reason: Type.String(),
});

const taskFields = {
  task_id: Type.Integer(),
  kind: StringEnum(['bulk', 'csv'] as const),
  status: TaskStatus,
  total: Type.Integer({ description: 'rows received' }),
  processed: Type.Integer({ description: 'rows looked at so far: added + failed' }),
  added: Type.Integer({ description: 'numbers added to the list, or updated when already listed' }),
  failed: Type.Integer({ description: 'rows that could not be added (invalid number, expires_at in the past, reason too long)' }),
  error_count: Type.Integer({ description: 'all failed rows, including those beyond the stored errors' }),
  file_name: Nullable(Type.String()),
  failure_reason: Nullable(Type.String()),
  created_at: DateTime,
  started_at: Nullable(DateTime),
  finished_at: Nullable(DateTime),
};

export const SuppressionTask = Type.Object({
  ...taskFields,
  errors: Type.Array(SuppressionRowError, { description: 'the first 1000 failed rows, in row order' }),
});
export type SuppressionTask = Static<typeof SuppressionTask>;

export const SuppressionTaskParams = Type.Object({ task_id: Id });
