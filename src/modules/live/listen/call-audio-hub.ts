import alawmulaw from 'alawmulaw';
import { FRAME_BYTES } from './mulaw-audio.ts';
import type { PacedAudio } from './paced-audio.ts';

/**
 * This process's listeners of vendor media (a Twilio Media Stream of our agent's calls): the two
 * parties' tracks arrive as 20 ms mu-law frames, are mixed into one (a frame of each, summed),
 * and go to every listener of the call. A track that falls silent (one party not speaking, or
 * not sent) does not hold the other back: after a few frames it is mixed with silence.
 */
export type Track = 'inbound' | 'outbound';
const MAX_WAIT_FRAMES = 3;

interface CallMix {
  listeners: Set<PacedAudio>;
  tracks: Record<Track, Buffer>;
}

export class CallAudioHub {
  private readonly calls = new Map<number, CallMix>();

  /** Adds a listener; answers whether it is the call's first here (the media must be asked for) and the detach. */
  listen(callId: number, audio: PacedAudio): { first: boolean; detach: () => boolean } {
    let mix = this.calls.get(callId);
    const first = !mix;
    if (!mix) this.calls.set(callId, (mix = { listeners: new Set(), tracks: { inbound: Buffer.alloc(0), outbound: Buffer.alloc(0) } }));
    mix.listeners.add(audio);
    const detach = () => {
      const current = this.calls.get(callId);
      if (!current?.listeners.delete(audio)) return false;
      if (current.listeners.size > 0) return false;
      this.calls.delete(callId);
      return true; // the last one: the media may be stopped
    };
    return { first, detach };
  }

  has(callId: number): boolean {
    return this.calls.has(callId);
  }

  /** A frame of one party's audio. */
  publish(callId: number, track: Track, mulaw: Buffer): void {
    const mix = this.calls.get(callId);
    if (!mix) return;
    mix.tracks[track] = Buffer.concat([mix.tracks[track], mulaw]);
    for (;;) {
      const a = mix.tracks.inbound;
      const b = mix.tracks.outbound;
      const ready = (x: Buffer, y: Buffer) => x.length >= FRAME_BYTES && (y.length >= FRAME_BYTES || x.length >= FRAME_BYTES * MAX_WAIT_FRAMES);
      if (!ready(a, b) && !ready(b, a)) return;
      const frame = mixFrames(a.subarray(0, FRAME_BYTES), b.subarray(0, FRAME_BYTES));
      mix.tracks.inbound = a.subarray(Math.min(a.length, FRAME_BYTES));
      mix.tracks.outbound = b.subarray(Math.min(b.length, FRAME_BYTES));
      for (const listener of mix.listeners) listener.push(frame);
    }
  }

  /** The vendor's media ended (the call, or the stream): the listeners hear what is left, then end. */
  ended(callId: number): void {
    const mix = this.calls.get(callId);
    if (!mix) return;
    for (const listener of mix.listeners) listener.finish();
  }
}

function mixFrames(a: Buffer, b: Buffer): Buffer {
  const x = a.length ? alawmulaw.mulaw.decode(a) : new Int16Array(0);
  const y = b.length ? alawmulaw.mulaw.decode(b) : new Int16Array(0);
  const out = new Int16Array(FRAME_BYTES);
  for (let i = 0; i < FRAME_BYTES; i++) out[i] = Math.max(-32768, Math.min(32767, (x[i] ?? 0) + (y[i] ?? 0)));
  return Buffer.from(alawmulaw.mulaw.encode(out));
}
