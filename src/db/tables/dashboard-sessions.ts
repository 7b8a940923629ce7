import type { Generated } from 'kysely';
import type { Timestamp } from './column-types.ts';

// The dashboard's cookie sessions (module auth, src/modules/auth/dashboard-session.ts):
// Kysely's view of what migration 0014 creates.

export interface DashboardSessionsTable {
  id: Generated<number>;
  /** SHA-256 of the cookie's token (digestToken); the token itself is never stored. */
  token_digest: string;
  /** Exactly one of user_id and sub_user_id is set. */
  user_id: number | null;
  sub_user_id: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  /** The principal's credential_version at sign-in; the session holds only while it is current. */
  credential_version: Generated<number>;
}

export interface DashboardSessionsTables {
  dashboard_sessions: DashboardSessionsTable;
}
