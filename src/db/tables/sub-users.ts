import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from './column-types.ts';

// The sub-users and their campaign grants tables: Kysely's view of what the migrations in ../migrations create.

export interface SubUsersTable {
  id: Generated<number>;
  owner_id: number;
  username: string;
  email: string | null;
  full_name: string | null;
  hashed_password: string;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  /** Raised by a password change or a deactivation: tokens and sessions of an older one are refused (migration 0022). */
  credential_version: Generated<number>;
}

export interface CampaignSubUsersTable {
  campaign_id: number;
  sub_user_id: number;
}

export interface SubUsersTables {
  sub_users: SubUsersTable;
  campaign_sub_users: CampaignSubUsersTable;
}

export type SubUserRow = Selectable<SubUsersTable>;
