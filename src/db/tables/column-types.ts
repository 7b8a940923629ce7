import type { ColumnType } from 'kysely';

/** Column types shared by every table: timestamps read as Date; JSON columns take JSON text on write. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
export type Json = ColumnType<unknown, string | undefined | null, string | null>;
