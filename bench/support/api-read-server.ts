/**
 * The server side of bench/api-read.ts, run as its own process so the load generator
 * does not share its CPU. BENCH_MODE=service runs the real app (auth, validation,
 * serialisation); BENCH_MODE=bare runs a bare Fastify route with the same SQL over pg.
 */
import Fastify from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createDeps } from '../../src/deps.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', PORT: '0' });
const deps = await createDeps(config);
const ownerId = Number(process.env.BENCH_OWNER_ID);

const app =
  process.env.BENCH_MODE === 'bare'
    ? (() => {
        const bare = Fastify({ logger: false });
        const pool = deps.database.pool;
        const columns = 'c.*, camp.title AS campaign_title';
        bare.get('/contact/:id', async (request) => {
          const { rows } = await pool.query(
            `SELECT ${columns} FROM contacts c JOIN campaigns camp ON camp.id = c.campaign_id WHERE c.id = $1 AND c.owner_id = $2`,
            [Number((request.params as { id: string }).id), ownerId],
          );
          return rows[0];
        });
        bare.get('/contacts', async (request) => {
          const q = request.query as { campaign_id: string; status: string };
          const params = [ownerId, [Number(q.campaign_id)], [q.status]];
          const where = 'c.owner_id = $1 AND c.campaign_id = ANY($2) AND c.status = ANY($3)';
          const [count, page] = await Promise.all([
            pool.query(`SELECT count(*) FROM contacts c WHERE ${where}`, params),
            pool.query(`SELECT ${columns} FROM contacts c JOIN campaigns camp ON camp.id = c.campaign_id WHERE ${where} ORDER BY c.id DESC LIMIT 20 OFFSET 0`, params),
          ]);
          return { data: page.rows, count: count.rows[0].count };
        });
        return bare;
      })()
    : await buildApp(deps, { logger: false });

const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${address}\n`);
process.on('SIGTERM', async () => {
  await app.close();
  await deps.database.close();
  process.exit(0);
});
