import { spawn } from 'node:child_process';

/**
 * Speech for the simulator's recordings: each turn of a transcript spoken offline by Debian's
 * espeak-ng (a voice per role), joined into one 16-bit mono WAV with a pause between turns. No
 * network, no model download; without espeak-ng installed the answer is null and the caller says
 * so (`apt-get install espeak-ng`).
 */
export interface SpokenTurn {
  role: string;
  text: string;
}

/** Bounds, so one request cannot keep a process busy: this many turns and characters are spoken at most. */
export const SPEECH_LIMITS = { turns: 40, characters: 4000, turnTimeoutMs: 10_000 };

const VOICES: Record<string, string> = { assistant: 'en-us+m3', user: 'en-us+f3' };
const PAUSE_SEC = 0.35;

export class SpeechUnavailableError extends Error {}

/** The transcript as one WAV file. Throws SpeechUnavailableError when espeak-ng is not installed. */
export async function speakTranscript(turns: SpokenTurn[]): Promise<Buffer> {
  let budget = SPEECH_LIMITS.characters;
  const spoken: { pcm: Buffer; rate: number }[] = [];
  for (const turn of turns.slice(0, SPEECH_LIMITS.turns)) {
    const text = turn.text.slice(0, Math.max(0, budget)).trim();
    budget -= text.length;
    if (!text) continue;
    spoken.push(pcmOf(await espeak(text, VOICES[turn.role] ?? VOICES.user!)));
  }
  const rate = spoken[0]?.rate ?? 22_050;
  const pause = Buffer.alloc(Math.round(rate * PAUSE_SEC) * 2);
  const pcm = Buffer.concat(spoken.flatMap((s, i) => (i === 0 ? [s.pcm] : [pause, s.pcm])));
  return wav(pcm, rate);
}

/** One turn spoken: 16-bit mono samples and their rate. Throws SpeechUnavailableError without espeak-ng. */
export async function speakTurn(turn: SpokenTurn): Promise<{ pcm: Buffer; rate: number }> {
  return pcmOf(await espeak(turn.text.slice(0, SPEECH_LIMITS.characters), VOICES[turn.role] ?? VOICES.user!));
}

function espeak(text: string, voice: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The text is one argument (no shell), after `--` so a turn starting with "-" is not an option.
    const child = spawn('espeak-ng', ['-v', voice, '-s', '165', '--stdout', '--', text], { stdio: ['ignore', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), SPEECH_LIMITS.turnTimeoutMs);
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new SpeechUnavailableError('espeak-ng is not installed') : error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`espeak-ng exited with ${code}`));
    });
  });
}

/** The samples of a 16-bit mono WAV (espeak-ng's output) and its rate. */
function pcmOf(file: Buffer): { pcm: Buffer; rate: number } {
  if (file.length < 44 || file.toString('ascii', 0, 4) !== 'RIFF') throw new Error('espeak-ng did not write a WAV file');
  const rate = file.readUInt32LE(24);
  // Chunks after "WAVE": find "data" (its size field may be 0 or wrong when written to a pipe).
  let at = 12;
  while (at + 8 <= file.length) {
    const id = file.toString('ascii', at, at + 4);
    const size = file.readUInt32LE(at + 4);
    if (id === 'data') return { pcm: file.subarray(at + 8), rate };
    at += 8 + size;
  }
  throw new Error('espeak-ng wrote no audio');
}

function wav(pcm: Buffer, rate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}
