import { startFakeTwilio } from './twilio.ts';
import type { FakeCallee } from './twilio-types.ts';

/**
 * `npm run fake:twilio`: the fake Twilio as a process, so the Twilio provider can be tried without
 * a Twilio account. Settings by environment (a test tool, not the service: it reads its own).
 * The callee is drawn by the last digit of the number called: 0-4 interested, 5 not interested,
 * 6 voicemail (a machine), 7 busy, 8 no answer, 9 interested but the completed callback is lost.
 */
const env = process.env;
const port = Number(env.FAKE_TWILIO_PORT ?? 4030);
const accountSid = env.FAKE_TWILIO_ACCOUNT_SID ?? `AC${'0'.repeat(32)}`;
const authToken = env.FAKE_TWILIO_AUTH_TOKEN ?? 'fake-twilio-token';

// A person answers, then stays on the line (silent) until the agent ends the call, as people do;
// the scripted demo agent asks its question after the first words, so the answer comes second.
const stay = { silenceMs: 60_000 };
const interested: FakeCallee = { answer: 'human', steps: [{ say: 'Hello?' }, { say: 'Yes, I am interested.' }, stay] };
const byDigit: FakeCallee[] = [
  interested, interested, interested, interested, interested,
  { answer: 'human', steps: [{ say: 'Hello?' }, { say: 'No thanks, I am not interested.' }, stay] },
  { answer: 'machine' },
  { answer: 'busy' },
  { answer: 'no-answer' },
  { ...interested, dropCompleted: true },
];

const fake = await startFakeTwilio({
  accountSid, authToken, port,
  maxConcurrent: Number(env.FAKE_TWILIO_MAX_CONCURRENT ?? 100),
  callsPerSecond: Number(env.FAKE_TWILIO_CPS ?? 0),
  timeScale: Number(env.FAKE_TWILIO_TIME_SCALE ?? 1),
  ringMs: Number(env.FAKE_TWILIO_RING_MS ?? 2000),
  callees: (to) => byDigit[Number(to.at(-1)) || 0]!,
});

console.log(`Fake Twilio listening on ${fake.url}
  account SID: ${accountSid}   (FAKE_TWILIO_ACCOUNT_SID)
  auth token:  ${authToken}                   (FAKE_TWILIO_AUTH_TOKEN)
  callees by the last digit called: 0-4 interested, 5 not interested, 6 voicemail, 7 busy, 8 no answer, 9 completed callback lost

Point the service at it:
  VOICE_PROVIDER=twilio TWILIO_BASE_URL=${fake.url} TWILIO_ACCOUNT_SID=${accountSid} TWILIO_AUTH_TOKEN=${authToken} \\
    TWILIO_FROM_NUMBER=+15550000001 PUBLIC_BASE_URL=http://127.0.0.1:8000 npm start
(PUBLIC_BASE_URL is where the fake fetches each call's TwiML and opens its socket: the service's own address.)`);

const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
