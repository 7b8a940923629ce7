import { startFakeVapi } from './vapi.ts';
import { FAKE_VAPI_OUTCOMES, type FakeVapiOutcome } from './vapi-script.ts';

/**
 * `npm run fake:vapi`: the fake Vapi as a process, so the whole product can be tried without a
 * Vapi account. Settings by environment (this is a test tool, not the service: it reads its own).
 * Outcomes are drawn by the last digit of the number called (0-4 interested, 5 not interested,
 * 6 voicemail, 7 busy, 8 no answer, 9 lose the end event) unless FAKE_VAPI_OUTCOME fixes one.
 */
const env = process.env;
const port = Number(env.FAKE_VAPI_PORT ?? 4010);
const apiKey = env.FAKE_VAPI_API_KEY ?? 'fake-vapi-key';
const webhookSecret = env.FAKE_VAPI_WEBHOOK_SECRET ?? 'fake-vapi-secret';
const serverUrl = env.FAKE_VAPI_SERVER_URL ?? 'http://127.0.0.1:8000/api/v1/voice/vapi/events';
const phoneNumberId = env.FAKE_VAPI_PHONE_NUMBER_ID ?? 'fake-number-1';
const fixed = env.FAKE_VAPI_OUTCOME as FakeVapiOutcome | undefined;
if (fixed && !FAKE_VAPI_OUTCOMES.includes(fixed)) throw new Error(`FAKE_VAPI_OUTCOME must be one of ${FAKE_VAPI_OUTCOMES.join(', ')}`);
const byDigit: FakeVapiOutcome[] = ['interested', 'interested', 'interested', 'interested', 'interested', 'not_interested', 'voicemail', 'busy', 'no_answer', 'lose_end'];

const fake = await startFakeVapi({
  port, apiKey, webhookSecret, serverUrl,
  signing: env.FAKE_VAPI_SIGNING === 'hmac' ? 'hmac' : 'secret',
  phoneNumbers: { [phoneNumberId]: env.FAKE_VAPI_PHONE_NUMBER ?? '+15550000001' },
  maxConcurrent: Number(env.FAKE_VAPI_MAX_CONCURRENT ?? 10),
  ringMs: Number(env.FAKE_VAPI_RING_MS ?? 2000),
  talkMs: Number(env.FAKE_VAPI_TALK_MS ?? 5000),
  timeScale: Number(env.FAKE_VAPI_TIME_SCALE ?? 12),
  choose: (number) => fixed ?? byDigit[Number(number.at(-1)) || 0]!,
});

console.log(`Fake Vapi listening on ${fake.url}
  API key:         ${apiKey}            (FAKE_VAPI_API_KEY)
  server secret:   ${webhookSecret}         (FAKE_VAPI_WEBHOOK_SECRET; FAKE_VAPI_SIGNING=hmac to sign instead)
  phone number id: ${phoneNumberId}            (FAKE_VAPI_PHONE_NUMBER_ID)
  org server URL:  ${serverUrl}  (FAKE_VAPI_SERVER_URL; calls with their own server URL use it instead)

Point the service at it:
  VOICE_PROVIDER=vapi VAPI_BASE_URL=${fake.url} VAPI_API_KEY=${apiKey} VAPI_WEBHOOK_SECRET=${webhookSecret} VAPI_PHONE_NUMBER_ID=${phoneNumberId} npm start`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
