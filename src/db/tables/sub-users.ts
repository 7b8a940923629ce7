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
