import { sql, type Kysely } from 'kysely';

/**
 * Issue 29: an account's SIP trunks (voice connections of kind SIP trunk): the credentials a
 * vendor authenticates with when it sends a campaign's calls through the customer's carrier
 * (the trunk's address is the campaign's campaign_sip), the gateways vendors that need them
 * register (Vapi), and the caller-ID numbers the trunk owns. The password is sealed like every
 * credential. A campaign names its trunk (campaigns.sip_trunk_id); deleting a trunk in use is
 * refused by the key. sip_trunk_vendor_numbers remembers what a vendor was given for a trunk's
 * number (Vapi: a credential and a BYO number; Retell: an imported number) so it is made once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sip_trunks (
      id bigserial PRIMARY KEY,
      owner_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name text NOT NULL,
      username text,
      password text,
      gateways text[] NOT NULL DEFAULT '{}',
      caller_ids text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db);
  await sql`CREATE INDEX sip_trunks_owner_idx ON sip_trunks (owner_id, id)`.execute(db);
  await sql`ALTER TABLE campaigns ADD COLUMN sip_trunk_id bigint REFERENCES sip_trunks(id)`.execute(db);
  await sql`CREATE INDEX campaigns_sip_trunk_idx ON campaigns (sip_trunk_id) WHERE sip_trunk_id IS NOT NULL`.execute(db);
  await sql`
    CREATE TABLE sip_trunk_vendor_numbers (
      trunk_id bigint NOT NULL REFERENCES sip_trunks(id) ON DELETE CASCADE,
      route text NOT NULL,
      number text NOT NULL,
      fingerprint text NOT NULL,
      vendor_credential_id text,
      vendor_number_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (trunk_id, route, number)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS sip_trunk_vendor_numbers`.execute(db);
  await sql`ALTER TABLE campaigns DROP COLUMN IF EXISTS sip_trunk_id`.execute(db);
  await sql`DROP TABLE IF EXISTS sip_trunks`.execute(db);
}
