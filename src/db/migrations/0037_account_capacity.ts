import { sql, type Kysely } from 'kysely';

/**
 * Reserved inbound capacity ("Live operations"): an account may cap its calls in progress at once,
 * all campaigns, inbound and outbound (max_concurrent_calls, null = no cap), and keep some of them
 * for inbound campaigns (reserved_inbound_calls). The dialer keeps outbound + max(inbound, reserve)
 * <= max, counted under the account's advisory lock (modules/dialer/account-capacity.ts).
 *
 * The checks repeat the API's rules so an operator's psql cannot store a reserve the dialer cannot
 * read: a reserve needs a cap and fits inside it. The count reads the account's live calls through
 * the existing partial unique index on calls (owner_id, callee) WHERE status = 'in progress'.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE account_compliance
    ADD COLUMN max_concurrent_calls integer CHECK (max_concurrent_calls > 0),
    ADD COLUMN reserved_inbound_calls integer NOT NULL DEFAULT 0 CHECK (reserved_inbound_calls >= 0),
    ADD CONSTRAINT account_compliance_reserve_within_cap
      CHECK (reserved_inbound_calls = 0 OR reserved_inbound_calls <= max_concurrent_calls)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE account_compliance DROP CONSTRAINT IF EXISTS account_compliance_reserve_within_cap,
    DROP COLUMN IF EXISTS max_concurrent_calls, DROP COLUMN IF EXISTS reserved_inbound_calls`.execute(db);
}
