import { PassThrough } from 'node:stream';
import { FRAME_BYTES, FRAME_MS, MULAW_SILENCE } from './mulaw-audio.ts';

/** At most this much speech waits to be played (a faster simulation drops the oldest). */
const MAX_QUEUED_MS = 20_000;

/**
 * A listener's audio: mu-law written at the pace it is spoken, 20 ms at a time, so a browser
 * plays it as it comes. `push` queues audio; `finish` ends the stream once the queue is played.
 */
export class PacedAudio {
  readonly stream = new PassThrough();
  private queue: Buffer[] = [];
  private queued = 0;
  private timer: NodeJS.Timeout | null = null;
  private finishing = false;
  private closed = false;

  constructor(private readonly onClose: () => void) {
    this.stream.on('close', () => this.close());
    this.timer = setInterval(() => this.tick(), FRAME_MS);
    // A first frame of silence: the answer's head goes out now, not with the first words.
    this.push(Buffer.alloc(FRAME_BYTES, MULAW_SILENCE));
  }

  push(mulaw: Buffer) {
    if (this.closed) return;
    this.queue.push(mulaw);
    this.queued += mulaw.length;
    while (this.queued > (MAX_QUEUED_MS / FRAME_MS) * FRAME_BYTES && this.queue.length > 1) this.queued -= this.queue.shift()!.length;
  }

  finish() {
    this.finishing = true;
    if (this.queued === 0) this.close();
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stream.end();
    this.onClose();
  }

  private tick() {
    if (this.queued === 0) {
      if (this.finishing) this.close();
      return;
    }
    let frame = Buffer.alloc(0);
    while (frame.length < FRAME_BYTES && this.queue.length > 0) {
      const head = this.queue[0]!;
      const take = Math.min(FRAME_BYTES - frame.length, head.length);
      frame = Buffer.concat([frame, head.subarray(0, take)]);
      if (take === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(take);
      this.queued -= take;
    }
    this.stream.write(frame);
  }
}
