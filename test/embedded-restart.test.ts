import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signIn, spawnServe, startServe, type ServeProcess } from './helpers/serve-process.ts';

/**
 * The embedded database is the default: a `serve` killed without warning (SIGKILL, the OOM
 * killer, power loss) must start again on the same DATA_DIR by itself, with every row it
 * acknowledged, while a second process next to a live one is still refused in one line.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'vc-restart-'));
const running: ServeProcess[] = [];
afterAll(async () => {
  for (const p of running) await p.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function serve() {
  const p = await startServe(dataDir);
  running.push(p);
  return { ...p, headers: await signIn(p.url) };
}

async function api(p: { url: string; headers: Record<string, string> }, method: string, path: string, body?: unknown) {
  const res = await fetch(`${p.url}/api/v1${path}`, { method, headers: p.headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
}

const phone = (i: number) => `+1415555${String(i).padStart(4, '0')}`;
const dataFor = (i: number) => ({ n: i, note: `contact ${i} `.repeat(400) }); // ~6 KB each: writes that take a while

async function contactsOf(p: { url: string; headers: Record<string, string> }, campaignId: number) {
  const res = await api(p, 'GET', `/contacts/campaign/${campaignId}?limit=1000`);
  expect(res.status).toBe(200);
  return new Map<string, any>(res.body.data.map((c: any) => [c.phone_number, c]));
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('serve on the embedded database after a crash', () => {
  let campaignId: number;
  const acknowledged = new Map<string, unknown>();

  it('starts again after SIGKILL on the same DATA_DIR and finds every committed row', async () => {
    const first = await serve();
    const campaign = await api(first, 'POST', '/campaigns/', { title: 'Survives a crash', campaign_type: 'Outbound' });
    expect(campaign.status).toBe(200);
    campaignId = campaign.body.id;
    await Promise.all(Array.from({ length: 40 }, async (_, i) => {
      const res = await api(first, 'POST', '/contacts/', { status: 'new', campaign_id: campaignId, phone_number: phone(i), contact_data: dataFor(i) });
      expect(res.status).toBe(200);
      acknowledged.set(phone(i), dataFor(i));
    }));
    await first.kill('SIGKILL');
    expect(existsSync(join(dataDir, '.s.PGSQL.5432'))).toBe(true); // what the crash leaves behind

    const second = await serve();
    expect((await api(second, 'GET', `/campaigns/${campaignId}`)).body.title).toBe('Survives a crash');
    const found = await contactsOf(second, campaignId);
    expect(found.size).toBe(40);
    for (const [number, data] of acknowledged) expect(found.get(number)?.contact_data).toEqual(data);
    await second.kill('SIGKILL');
  }, 900_000);

  it('keeps every acknowledged row, each whole, when killed while many writes are in flight', async () => {
    const p = await serve();
    const inFlight = new Map<string, unknown>(); // sent, answer not seen: may or may not be committed
    let next = 100;
    let killed = false;
    const writer = async () => {
      while (!killed && next < 2000) {
        const i = next++;
        inFlight.set(phone(i), dataFor(i));
        try {
          const res = await api(p, 'POST', '/contacts/', { status: 'new', campaign_id: campaignId, phone_number: phone(i), contact_data: dataFor(i) });
          if (res.status === 200) acknowledged.set(phone(i), dataFor(i));
        } catch {
          // the connection died with the process: this write's fate is unknown
        }
      }
    };
    const writers = Array.from({ length: 16 }, writer);
    while (acknowledged.size < 40 + 150) await new Promise((r) => setTimeout(r, 5));
    killed = true;
    await p.kill('SIGKILL');
    await Promise.all(writers);

    const again = await serve();
    const found = await contactsOf(again, campaignId);
    for (const [number, data] of acknowledged) expect(found.get(number)?.contact_data, number).toEqual(data);
    // Rows whose answer was lost are either there, whole, or not there at all.
    for (const [number, c] of found) expect(c.contact_data).toEqual(acknowledged.get(number) ?? inFlight.get(number));
  }, 900_000);

  it('refuses a second serve on the same DATA_DIR while the first lives, in one line', async () => {
    const owner = running.at(-1)!;
    const second = spawnServe(dataDir);
    let stderr = '';
    second.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = await once(second, 'exit');
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      `The data directory ${dataDir} is in use by process ${owner.child.pid}. Only one process may own the embedded database: ` +
        'stop that process, use another DATA_DIR, or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
    expect((await fetch(`${owner.url}/readyz`)).ok).toBe(true); // the owner is untouched
  }, 600_000);
});
