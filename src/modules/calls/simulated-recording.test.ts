import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialerHarness, usNumber, type DialerHarness } from '../../../test/helpers/dialer-harness.ts';
import { createAccount } from '../../../test/helpers/factories.ts';

/**
 * A simulated call's record_url plays: the service speaks the call's transcript (espeak-ng) as a
 * WAV, for those who may see the call. CI installs espeak-ng; without it the answer is a 503 that
 * says what to install.
 */
let h: DialerHarness;
beforeAll(async () => {
  h = await dialerHarness();
});
afterAll(async () => h?.close());

async function finishedCall() {
  const c = await h.campaign();
  const [id] = await h.contacts(c, [usNumber()], { contact_data: { name: 'Ann', _sim: { persona: 'interested' } } });
  await h.enqueue(c);
  expect(await h.round(c)).toBe(1);
  await h.advance(2 * 3600_000);
  const [call] = await h.callsOf(id!);
  return call;
}

describe('a simulated call\'s recording', () => {
  it('is its transcript spoken, a WAV as long as the turns take, at the URL the call records', async () => {
    const call = await finishedCall();
    expect(call.record_url).toBe(`/api/v1/calls/${call.id}/simulated-recording`);
    const res = await h.t.request({ method: 'GET', url: call.record_url, headers: h.account.headers });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    const wav = res.rawPayload;
    expect(wav.toString('ascii', 0, 4)).toBe('RIFF');
    expect(wav.toString('ascii', 8, 12)).toBe('WAVE');
    const rate = wav.readUInt32LE(24);
    const seconds = wav.readUInt32LE(40) / (rate * 2);
    // Each turn spoken takes at least a second; the file is not silence.
    expect(seconds).toBeGreaterThan(call.call_data.transcript.length);
    expect(wav.subarray(44).some((b: number) => b !== 0)).toBe(true);
  });

  it('is another account\'s call: 403; an unknown call 404; a call without a transcript 404', async () => {
    const call = await finishedCall();
    const other = await createAccount(h.t);
    expect((await h.t.request({ method: 'GET', url: call.record_url, headers: other.headers })).statusCode).toBe(403);
    expect((await h.t.request({ method: 'GET', url: '/api/v1/calls/999999/simulated-recording', headers: h.account.headers })).statusCode).toBe(404);
    await h.t.deps.db.updateTable('calls').set({ call_data: JSON.stringify({ provider: 'sim', transcript: [] }) }).where('id', '=', call.id).execute();
    expect((await h.t.request({ method: 'GET', url: call.record_url, headers: h.account.headers })).statusCode).toBe(404);
  });

  it('says what to install when espeak-ng is missing', async () => {
    const call = await finishedCall();
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      const res = await h.t.request({ method: 'GET', url: call.record_url, headers: h.account.headers });
      expect(res.statusCode).toBe(503);
      expect(res.json().detail).toContain('apt-get install espeak-ng');
    } finally {
      process.env.PATH = path;
    }
  });
});
