import alawmulaw from 'alawmulaw';

/** An operator's audio answer (GET /api/v1/live/calls/{id}/audio) read as it comes, until it ends or is aborted. */
export function readAudio(res: Response) {
  const chunks: Buffer[] = [];
  const done = (async () => {
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(chunk));
    } catch { /* aborted */ }
  })();
  return { chunks, bytes: () => chunks.reduce((n, c) => n + c.length, 0), all: () => Buffer.concat(chunks), done };
}

/** The loudness of mu-law audio (root mean square of its 16-bit samples): far above 0 when someone speaks. */
export function mulawRms(mulaw: Buffer): number {
  const samples = Array.from(alawmulaw.mulaw.decode(new Uint8Array(mulaw)));
  return Math.sqrt(samples.reduce((sum: number, x: number) => sum + x * x, 0) / samples.length);
}
