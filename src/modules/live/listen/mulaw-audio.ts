import alawmulaw from 'alawmulaw';

/**
 * Telephone audio as the listen stream carries it: G.711 mu-law, 8 kHz, mono (`audio/basic`),
 * what Twilio's media streams carry too; 160 bytes are 20 ms.
 */
export const MULAW_RATE = 8000;
export const FRAME_BYTES = 160;
export const FRAME_MS = 20;

/** 16-bit little-endian mono samples at `rate`, as mu-law at 8 kHz (each output sample the mean of the input it covers). */
export function pcm16ToMulaw8k(pcm: Buffer, rate: number): Buffer {
  const input = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + (pcm.length - (pcm.length % 2))));
  const step = rate / MULAW_RATE;
  const out = new Int16Array(Math.floor(input.length / step));
  for (let i = 0; i < out.length; i++) {
    const from = Math.floor(i * step);
    const to = Math.max(from + 1, Math.floor((i + 1) * step));
    let sum = 0;
    for (let j = from; j < to; j++) sum += input[j]!;
    out[i] = Math.round(sum / (to - from));
  }
  return Buffer.from(alawmulaw.mulaw.encode(out));
}

/** Silence in mu-law: the code of a zero sample. */
export const MULAW_SILENCE = 0xff;
