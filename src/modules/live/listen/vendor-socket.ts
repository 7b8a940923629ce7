import WebSocket from 'ws';
import type { LiveAudioSocket } from '../../../voice/provider.ts';
import { pcm16ToMulaw8k } from './mulaw-audio.ts';
import { PacedAudio } from './paced-audio.ts';

/** How long a vendor's listen socket may take to open before the listener gets a 502. */
const OPEN_TIMEOUT_MS = 5000;

/** The vendor's listen socket would not open: its reason, for the listener's 502. */
export class ListenSocketError extends Error {}

/**
 * A vendor's listen socket relayed to one operator: binary frames of interleaved 16-bit PCM,
 * mixed down to one channel and written as mu-law 8 kHz as they come. Text frames (the vendor's
 * notices) are not audio and are skipped. The operator leaving closes the socket; the vendor
 * closing it (the call ended) ends the operator's stream once its audio is played.
 */
export async function relayVendorSocket(source: LiveAudioSocket): Promise<PacedAudio> {
  const ws = new WebSocket(source.url, { handshakeTimeout: OPEN_TIMEOUT_MS, maxPayload: 1 << 20, followRedirects: false });
  const audio = new PacedAudio(() => ws.close());
  const bytesPerFrame = 2 * source.channels;
  let carry = Buffer.alloc(0);
  ws.on('message', (data, isBinary) => {
    if (!isBinary) return;
    const bytes = Buffer.concat([carry, Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)]);
    const whole = bytes.length - (bytes.length % bytesPerFrame);
    carry = bytes.subarray(whole);
    audio.push(pcm16ToMulaw8k(downmix(bytes.subarray(0, whole), source.channels), source.rate));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('unexpected-response', (_req, res) => reject(new ListenSocketError(`the vendor's listen socket answered HTTP ${res.statusCode ?? '?'}`)));
    ws.once('error', (error) => reject(new ListenSocketError(`the vendor's listen socket did not open: ${error.message}`)));
  }).catch((error: unknown) => {
    audio.close();
    throw error;
  });
  ws.on('error', () => audio.finish());
  ws.on('close', () => audio.finish());
  return audio;
}

/** Interleaved 16-bit little-endian channels as one: each sample the mean of its channels. */
export function downmix(pcm: Buffer, channels: number): Buffer {
  if (channels === 1) return pcm;
  const frames = Math.floor(pcm.length / (2 * channels));
  const out = Buffer.alloc(frames * 2);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += pcm.readInt16LE((f * channels + c) * 2);
    out.writeInt16LE(Math.round(sum / channels), f * 2);
  }
  return out;
}
