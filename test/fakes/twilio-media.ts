import alawmulaw from 'alawmulaw';
import { WebSocket } from 'ws';
import type { LiveCall } from './twilio-call.ts';
import { newSid, rfc2822, twilioError, twilioSign } from './twilio-types.ts';

/**
 * Twilio's Media Streams as the fake runs them: POST /Calls/{sid}/Streams.json (what
 * `<Start><Stream>` does, through the API) opens a WebSocket to `Url`, signed with
 * X-Twilio-Signature like every Twilio request, and sends Twilio's messages: `connected`, `start`
 * (the mu-law 8 kHz media format), a `media` message of 20 ms per track (base64 mu-law: a tone for
 * each party, so a listener hears something), and `stop` when the stream is stopped
 * (POST /Calls/{sid}/Streams/{name or sid}.json Status=stopped) or the call ends.
 */
export interface FakeMediaStream {
  sid: string;
  name: string | null;
  url: string;
  track: string;
  /** Whether the socket was opened (the app accepted the handshake). */
  opened: boolean;
  /** The HTTP status the app answered the handshake with, when it refused. */
  refused: number | null;
  mediaSent: number;
  stopped: boolean;
}

type Answer = { status: number; body: unknown };
const FRAME_MS = 20;

function tone(hz: number, n: number, offset: number): string {
  const pcm = new Int16Array(160);
  for (let i = 0; i < 160; i++) pcm[i] = Math.round(6000 * Math.sin((2 * Math.PI * hz * (offset * 160 + i)) / 8000));
  return Buffer.from(alawmulaw.mulaw.encode(pcm)).toString('base64');
}

export function createMediaStreams(env: { accountSid: string; authToken: string }) {
  const byCall = new Map<string, FakeMediaStream[]>();
  const stops = new Map<FakeMediaStream, () => void>();

  function run(live: LiveCall, stream: FakeMediaStream) {
    const ws = new WebSocket(stream.url, { headers: { 'x-twilio-signature': twilioSign(env.authToken, stream.url, {}) } });
    let seq = 0;
    let timer: NodeJS.Timeout | null = null;
    const send = (m: object) => ws.readyState === ws.OPEN && ws.send(JSON.stringify({ ...m, sequenceNumber: String(++seq), streamSid: stream.sid }));
    const stop = () => {
      if (stream.stopped) return;
      stream.stopped = true;
      if (timer) clearInterval(timer);
      send({ event: 'stop', stop: { accountSid: env.accountSid, callSid: live.call.sid } });
      ws.close();
    };
    stops.set(stream, stop);
    ws.on('unexpected-response', (_req, res) => { stream.refused = res.statusCode ?? 0; stream.stopped = true; });
    ws.on('error', () => { stream.stopped = true; });
    ws.on('open', () => {
      stream.opened = true;
      ws.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
      send({ event: 'start', start: { accountSid: env.accountSid, streamSid: stream.sid, callSid: live.call.sid, tracks: ['inbound', 'outbound'], customParameters: {}, mediaFormat: { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 } } });
      const started = Date.now();
      let chunk = 0;
      timer = setInterval(() => {
        if (live.call.status !== 'in-progress') return stop();
        chunk++;
        const timestamp = String(Date.now() - started);
        for (const [track, hz] of [['inbound', 330], ['outbound', 440]] as const) {
          if (stream.track !== 'both_tracks' && stream.track !== `${track}_track`) continue;
          send({ event: 'media', media: { track, chunk: String(chunk), timestamp, payload: tone(hz, 160, chunk) } });
          stream.mediaSent++;
        }
      }, FRAME_MS);
    });
    void live.call.done.then(stop);
  }

  return {
    streamsOf: (callSid: string) => byCall.get(callSid) ?? [],
    /** POST /Calls/{sid}/Streams.json and POST /Calls/{sid}/Streams/{id}.json. */
    route(live: LiveCall, rest: string, params: Record<string, string>): Answer | null {
      const create = /^\/Calls\/CA[0-9a-f]{32}\/Streams\.json$/.test(rest);
      const update = /^\/Calls\/CA[0-9a-f]{32}\/Streams\/([^/]+)\.json$/.exec(rest);
      if (!create && !update) return null;
      const list = byCall.get(live.call.sid) ?? [];
      if (create) {
        if (!params.Url || !/^wss?:\/\//.test(params.Url)) return { status: 400, body: twilioError(400, 21205, 'Url must be a WebSocket URL (wss://)') };
        if (live.call.status !== 'in-progress') return { status: 400, body: twilioError(400, 21220, 'Call is not in-progress. Cannot start a stream.') };
        const stream: FakeMediaStream = { sid: newSid('MZ'), name: params.Name ?? null, url: params.Url, track: params.Track ?? 'inbound_track', opened: false, refused: null, mediaSent: 0, stopped: false };
        byCall.set(live.call.sid, [...list, stream]);
        run(live, stream);
        return { status: 201, body: resource(live, stream) };
      }
      const stream = list.find((s) => s.sid === update![1] || s.name === decodeURIComponent(update![1]!));
      if (!stream) return { status: 404, body: twilioError(404, 20404, `The requested resource ${rest} was not found`) };
      if (params.Status === 'stopped') stops.get(stream)?.();
      return { status: 200, body: resource(live, stream) };
    },
  };

  function resource(live: LiveCall, s: FakeMediaStream) {
    return { sid: s.sid, account_sid: env.accountSid, call_sid: live.call.sid, name: s.name, status: s.stopped ? 'stopped' : 'in-progress', date_updated: rfc2822(Date.now()), uri: `/2010-04-01/Accounts/${env.accountSid}/Calls/${live.call.sid}/Streams/${s.sid}.json` };
  }
}
