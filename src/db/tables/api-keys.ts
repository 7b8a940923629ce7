import type { Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './column-types.ts';

// The API keys tables: Kysely's view of what the migrations in ../migrations create.

export interface ApiKeysTable {
  id: Generated<number>;
  owner_id: number;
  name: string | null;
  key_prefix: string;
  key_hash: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface ApiKeysTables {
  api_keys: ApiKeysTable;
}
