/**
 * The text sender alone, as a real process on DATABASE_URL (PostgreSQL), with the service's own
 * settings from the environment (Twilio's among them), so a test can run two of it and SIGKILL
 * one mid-send. Used by test/texts-process.test.ts. Its leases are short so a test can watch
 * a dead process's claims handed back and its lost sends end:
 *   TEXT_LEASE_MS       claims older than this are handed back (default 2000)
 *   TEXT_LOST_AFTER_MS  a send without an answer or a report ends failed after this (default 20000)
 *   TEXT_BATCH          texts written in one transaction (default 5)
 */
import { loadConfig } from '../../src/config.ts';
import { closeDeps, createDeps } from '../../src/deps.ts';
import { createTextSenderWorker } from '../../src/modules/messaging/text-sender.worker.ts';

const config = await loadConfig();
if (!config.DATABASE_URL) {
  console.error('DATABASE_URL is required');
  process.exit(2);
}
const deps = await createDeps(config);
const leaseMs = Number(process.env.TEXT_LEASE_MS ?? 2000);
const worker = createTextSenderWorker(deps, {
  workerId: `text-proc-${process.pid}`, pollMs: 50, leaseMs, sweepMs: Math.max(100, leaseMs / 4),
  lostAfterMs: Number(process.env.TEXT_LOST_AFTER_MS ?? 20_000), batch: Number(process.env.TEXT_BATCH ?? 5),
});
worker.start();
console.log('text worker ready');
process.on('SIGTERM', () => {
  void worker.stop().then(() => closeDeps(deps)).then(() => process.exit(0));
});
