import { startFakeRetell } from './retell.ts';

/**
 * `npm run fake:retell`: the fake Retell as a process, for trying the whole product without
 * a Retell account. Port FAKE_RETELL_PORT (4020); events go to FAKE_RETELL_WEBHOOK_URL
 * (the service's Retell events route on its default port). A command of its own, outside
 * the service, so reading process.env here is fine.
 */
const port = Number(process.env.FAKE_RETELL_PORT ?? 4020);
const webhookUrl = process.env.FAKE_RETELL_WEBHOOK_URL ?? 'http://127.0.0.1:8000/api/v1/voice/retell/events';
const apiKey = process.env.FAKE_RETELL_API_KEY ?? 'key_fake_retell';
const agentId = 'agent_fake_retell';
const fromNumber = '+14155550100';

const fake = await startFakeRetell({ apiKey, webhookUrl, port, fromNumbers: [fromNumber], agents: { [agentId]: {} }, ringMs: 2_000, talkMs: 8_000, analyzeMs: 2_000, maxConcurrent: 20 });
console.log(`Fake Retell listening on ${fake.url}; events go to ${webhookUrl}`);
console.log('Point the service at it:');
console.log(`  VOICE_PROVIDER=retell RETELL_BASE_URL=${fake.url} RETELL_API_KEY=${apiKey} RETELL_AGENT_ID=${agentId} RETELL_FROM_NUMBER=${fromNumber} npm start`);
console.log('Every call is answered and interested, except +15555550002 (voicemail), +15555550003 (busy) and +15555550004 (no answer).');
fake.script('+15555550002', 'voicemail');
fake.script('+15555550003', 'busy');
fake.script('+15555550004', 'no_answer');

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
