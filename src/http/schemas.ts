import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/** Schema helpers shared by every module, so one convention gives one OpenAPI shape. */
/**
 * `T | null` as one JSON schema with `type: [T, "null"]`. `anyOf [T, null]` would be
 * wrong here: with Fastify's `coerceTypes`, Ajv coerces a null into the first branch
 * (null becomes 0, "" or false) before the null branch is tried. A type list lets Ajv
 * see that null is allowed. Schemas without a single `type` (unions) fall back to anyOf
 * with the null branch first.
 */
export function Nullable<T extends TSchema>(schema: T, options: Record<string, unknown> = {}): TUnsafe<Static<T> | null> {
  const plain = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  if (typeof plain.type === 'string') {
    const result: Record<string, unknown> = { ...plain, type: [plain.type, 'null'], ...options };
    if (Array.isArray(plain.enum)) result.enum = [...plain.enum, null];
    if ('const' in plain) {
      result.enum = [plain.const, null];
      delete result.const;
    }
    return Type.Unsafe<Static<T> | null>(result);
  }
  return Type.Unsafe<Static<T> | null>({ anyOf: [{ type: 'null' }, plain], ...options });
}
/** Responses hand Date objects to the serializer; requests receive ISO strings. */
/** A string enum that appears in OpenAPI as `{type: string, enum}` (Type.Enum leaves the type out) and types as a union. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const DateTime = Type.Unsafe<Date | string>({ type: 'string', format: 'date-time' });
/**
 * Every id a request carries (path, query or body): a positive integer a JavaScript number
 * holds exactly. Outside 1..2^53-1 it is no id at all, so the answer is 422 wherever it appears
 * (never a database error); an id in range that names nothing is 404.
 */
export const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
export const IdParams = Type.Object({ id: Id });
export const CampaignIdParams = Type.Object({ campaign_id: Id });
/** Ids in a query filter: repeated keys or a comma list. */
export const IdList = (description: string) => Type.Array(Id, { maxItems: 1000, description });

/** A count or duration filter over a PostgreSQL integer column: beyond 2^31-1 the database refused it (a 500). */
export const CountFilter = (description: string) => Type.Integer({ minimum: 0, maximum: 2_147_483_647, description });

export const MAX_LIMIT = 1000;
// Bounded like ids: beyond, PostgreSQL's bigint OFFSET overflowed into a 500.
export const Skip = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 });
export const Limit = (defaultValue: number) => Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: defaultValue });

export const Detail = Type.Object({ detail: Type.String() }, { description: 'Error' });
export const ValidationDetail = Type.Object(
  {
    detail: Type.Array(
      Type.Object({
        loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
        msg: Type.String(),
        type: Type.String(),
      }),
    ),
  },
  { description: 'Validation Error' },
);

/** The error responses every authenticated operation can give, for the OpenAPI document. */
export const ErrorResponses = { 401: Detail, 403: Detail, 404: Detail, 422: ValidationDetail } as const;

/** The API's Message object, answered by enqueue and delete operations. */
export const Message = Type.Object({
  message: Type.String(),
  user_id: Type.Integer(),
  campaign_id: Type.Integer(),
  contact_id: Type.Integer(),
  call_id: Nullable(Type.Integer()),
  role_id: Type.String(),
  source: Type.String(),
  id: Type.Optional(Nullable(Type.Integer())),
  create_datetime: Type.Optional(DateTime),
  message_data: Type.Optional(Nullable(Type.Object({}, { additionalProperties: true }))),
});
