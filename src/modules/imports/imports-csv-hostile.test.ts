import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepAlive, send } from '../../../test/helpers/fuzz-http.ts';
import { multipartBody, appWithImportWorker, usPhone, type ImportScene } from '../../../test/helpers/imports.ts';
import { seed } from '../../../test/helpers/seed.ts';

// Found by the fuzzer's hostile CSV bodies (test/helpers/fuzz-csv.ts); each was a 500 or a hang.
let scene: ImportScene;
let port: number;
const agent = keepAlive();

beforeAll(async () => {
  scene = await appWithImportWorker();
  await scene.t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (scene.t.app.server.address() as AddressInfo).port;
});
afterAll(async () => { agent.destroy(); await scene?.close(); });

const post = (path: string, fields: Record<string, string>, content: Buffer, name = 'c.csv') => {
  const { payload, headers } = multipartBody(fields, { name, content });
  return send(agent, port, { label: path, method: 'POST', path, headers: { ...scene.alice.headers, ...headers }, body: Buffer.from(payload) });
};
const count = async (table: 'import_tasks' | 'suppression_imports') =>
  Number((await scene.t.deps.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('hostile CSV uploads', () => {
  it('answers a refused upload whose body was not read with Connection: close, so the next request on a kept-alive client is answered', async () => {
    const { campaigns: [campaign] } = await seed(scene.t.deps.db, { campaigns: [{ owner: scene.alice }] });
    const huge = Buffer.concat([Buffer.from(`phone,name\n${usPhone(60)},`), Buffer.alloc(3_000_000, 'y'), Buffer.from('\n')]);
    for (const path of ['/api/v1/contacts/import/csv', '/api/v1/suppressions/import/csv']) {
      for (let i = 0; i < 2; i++) {
        const res = await post(path, { campaign_id: String(campaign.id) }, huge);
        expect(res.error, path).toBeUndefined();
        expect(res.status, res.body).toBe(422);
        expect(res.headers.connection).toBe('close');
      }
    }
  }, 30_000);

  it('stores a file name holding a NUL without it (it was a 500)', async () => {
    const { campaigns: [campaign] } = await seed(scene.t.deps.db, { campaigns: [{ owner: scene.alice }] });
    const res = await post('/api/v1/contacts/import/csv', { campaign_id: String(campaign.id) }, Buffer.from(`phone\n${usPhone(61)}\n`), 'a\u0000b.csv');
    expect(res.status, res.body).toBe(200);
    const task = await scene.t.deps.db.selectFrom('import_tasks').select('file_name').where('id', '=', JSON.parse(res.body).task_id).executeTakeFirstOrThrow();
    expect(task.file_name).toBe('ab.csv');
    const dnc = await post('/api/v1/suppressions/import/csv', {}, Buffer.from(`phone_number\n${usPhone(62)}\n`), 'a\u0000b.csv');
    expect(dnc.status, dnc.body).toBeLessThan(300);
  });

  it('refuses a do-not-call file whose row holds a NUL with a 422 naming the row, storing nothing (it was a 500)', async () => {
    const before = await count('suppression_imports');
    const res = await post('/api/v1/suppressions/import/csv', {}, Buffer.from(`phone_number,reason\n${usPhone(63)},ok\n${usPhone(64)},a\u0000b\n`));
    expect(res.status, res.body).toBe(422);
    expect(JSON.parse(res.body).detail[0].msg).toMatch(/^Row 2, column 2: .*NUL/);
    expect(await count('suppression_imports')).toBe(before);
  });
});
