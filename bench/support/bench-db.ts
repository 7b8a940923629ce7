import pg from 'pg';

/** A throw-away PostgreSQL database for one benchmark run. */
export const benchAdminUrl = () => process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function createBenchDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: benchAdminUrl() });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(benchAdminUrl());
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
