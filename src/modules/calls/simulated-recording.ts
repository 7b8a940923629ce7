import type { Db } from '../../db/connection.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { speakTranscript, SpeechUnavailableError, type SpokenTurn } from '../../shared/speech.ts';
import type { Principal } from '../auth/principal.ts';
import { requireCall } from './calls.service.ts';

/** A simulated call's transcript, spoken: only the simulator's calls, only with a transcript. */
export async function simulatedRecording(db: Db, principal: Principal, id: number): Promise<Buffer> {
  const call = await requireCall(db, principal, id);
  const data = (call.call_data ?? {}) as { transcript?: unknown; provider?: unknown };
  const turns = Array.isArray(data.transcript) ? (data.transcript as unknown[]).filter(isTurn) : [];
  if (data.provider !== 'sim' || turns.length === 0) throw notFound('Simulated recording');
  try {
    return await speakTranscript(turns);
  } catch (error) {
    if (error instanceof SpeechUnavailableError) throw new HttpError(503, 'Simulated recordings are spoken by espeak-ng, which is not installed on this server (apt-get install espeak-ng)');
    throw error;
  }
}

const isTurn = (t: unknown): t is SpokenTurn =>
  typeof t === 'object' && t !== null && typeof (t as SpokenTurn).text === 'string' && typeof (t as SpokenTurn).role === 'string';
