import { Type, type Static } from 'typebox';
import { DateTime, Limit, Nullable, Skip, StringEnum } from '../../http/schemas.ts';
import { AuditKindSchema, AUDIT_KINDS, SubjectTypeSchema } from './audit.kinds.ts';

export const AuditEvent = Type.Object({
  id: Type.Integer(),
  kind: AuditKindSchema,
  created_at: DateTime,
  actor: Type.Object({
    type: StringEnum(['user', 'sub_user', 'api_key'] as const, { description: 'api_key when the request came with X-API-Key (user_id is then the account the key belongs to)' }),
    user_id: Nullable(Type.Integer()),
    sub_user_id: Nullable(Type.Integer()),
    api_key_id: Nullable(Type.Integer()),
    label: Type.String({ description: 'the account\'s e-mail, the sub-user\'s username or "api key <name>" (#<id> when unnamed), as it was when the event was written' }),
  }),
  subject: Type.Object({
    type: SubjectTypeSchema,
    id: Nullable(Type.Integer({ description: 'the id of the row the event is about; it may since have been deleted' })),
  }),
  details: Type.Object({}, { additionalProperties: true, description: 'what changed; depends on the kind; never secrets' }),
  ip: Nullable(Type.String({ description: 'the client address as the service sees it (behind a proxy: see TRUST_PROXY)' })),
  user_agent: Nullable(Type.String({ description: 'the User-Agent header, cut to 512 characters' })),
});
export type AuditEvent = Static<typeof AuditEvent>;

export const AuditEventList = Type.Object({
  data: Type.Array(AuditEvent),
  count: Type.Integer({ description: 'the number of all events matching the filters, not the page size; an estimate when count_exact is false' }),
  count_exact: Type.Optional(
    Type.Boolean({ description: "true when count is exact (at most 1000 events match); false when more match and count is the database's estimate" }),
  ),
});

export const AuditListQuery = Type.Object({
  since: Type.Optional(Type.Unsafe<string>({ type: 'string', format: 'date-time', description: 'events at or after this time (inclusive); without an offset read as UTC' })),
  until: Type.Optional(Type.Unsafe<string>({ type: 'string', format: 'date-time', description: 'events before this time (exclusive); without an offset read as UTC' })),
  actor: Type.Optional(Type.String({
    minLength: 1,
    maxLength: 254,
    description: '`user:<id>` (the account, including what it did by its API keys), `sub_user:<id>` or `api_key:<id>` match that actor exactly; any other text matches actor labels containing it, case-insensitively',
  })),
  kind: Type.Optional(Type.Array(AuditKindSchema, { maxItems: AUDIT_KINDS.length, description: 'any of these kinds; repeated keys or a comma list' })),
  skip: Skip,
  limit: Limit(100),
});
export type AuditListQuery = Static<typeof AuditListQuery>;
