import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { DatabaseHandle } from '../../../db/connection.ts';
import type { CallAudioHub, Track } from './call-audio-hub.ts';

/**
 * Twilio's media of a call, brought to the process its listeners are on. Each process asks for
 * its own stream (named for the process, its URL saying `node=<this process>`), but the socket
 * Twilio opens may land on any process behind a balancer: frames for this process go to its hub;
 * frames for another are sent on through PostgreSQL (NOTIFY on CHANNEL, 100 ms of both tracks a
 * message, well under NOTIFY's 8,000 bytes), and that process, LISTENing while it has listeners,
 * takes the ones addressed to it. The embedded database is one process: everything is local.
 */
export const MEDIA_CHANNEL = 'vc_call_audio';
const BATCH_MS = 100;

interface Message {
  /** The process the stream is for. */
  n: string;
  c: number;
  /** Each track's mu-law, base64. */
  i?: string;
  o?: string;
  /** The stream ended. */
  e?: true;
}

export interface MediaBridge {
  /** This process's name in stream URLs and names. */
  readonly node: string;
  /** A frame of a stream asked for by `node`. */
  frame(node: string | null, callId: number, track: Track, mulaw: Buffer): void;
  /** The stream of `node` ended. */
  ended(node: string | null, callId: number): void;
  /** While this process has listeners: takes the frames other processes send it; answers the stop. */
  follow(): Promise<() => void>;
  close(): Promise<void>;
}

export function createMediaBridge(options: { hub: CallAudioHub; database: DatabaseHandle; log: Logger }): MediaBridge {
  const { hub, database, log } = options;
  const node = randomBytes(4).toString('hex');
  const shared = database.kind === 'postgres';
  // Frames waiting to be sent on, per (node, call).
  const pending = new Map<string, { n: string; c: number; i: Buffer[]; o: Buffer[] }>();
  let flushTimer: NodeJS.Timeout | null = null;
  let followers = 0;
  let listening: Promise<pg.Client | null> | null = null;

  function send(message: Message) {
    sql`SELECT pg_notify(${MEDIA_CHANNEL}, ${JSON.stringify(message)})`.execute(database.db)
      .catch((error: Error) => log.warn({ err: error }, 'listen: sending media to another process failed'));
  }

  function flush() {
    flushTimer = null;
    for (const batch of pending.values()) {
      send({ n: batch.n, c: batch.c, ...(batch.i.length && { i: Buffer.concat(batch.i).toString('base64') }), ...(batch.o.length && { o: Buffer.concat(batch.o).toString('base64') }) });
    }
    pending.clear();
  }

  function take(payload: string | undefined) {
    let message: Message;
    try {
      message = JSON.parse(payload ?? '') as Message;
    } catch {
      return;
    }
    if (message.n !== node || typeof message.c !== 'number') return;
    if (message.i) hub.publish(message.c, 'inbound', Buffer.from(message.i, 'base64'));
    if (message.o) hub.publish(message.c, 'outbound', Buffer.from(message.o, 'base64'));
    if (message.e) hub.ended(message.c);
  }

  async function listen(): Promise<pg.Client | null> {
    const client = new pg.Client(database.pool.options);
    client.on('error', () => {});
    client.on('notification', (n) => take(n.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${MEDIA_CHANNEL}`);
      return client;
    } catch (error) {
      log.warn({ err: error }, 'listen: LISTEN unavailable, only streams landing on this process are heard');
      await client.end().catch(() => {});
      return null;
    }
  }

  return {
    node,
    frame(to, callId, track, mulaw) {
      if (to === null || to === node || !shared) return hub.publish(callId, track, mulaw);
      const key = `${to}|${callId}`;
      let batch = pending.get(key);
      if (!batch) pending.set(key, (batch = { n: to, c: callId, i: [], o: [] }));
      (track === 'inbound' ? batch.i : batch.o).push(mulaw);
      if (!flushTimer) {
        flushTimer = setTimeout(flush, BATCH_MS);
        flushTimer.unref();
      }
    },
    ended(to, callId) {
      if (to === null || to === node || !shared) return hub.ended(callId);
      flush();
      send({ n: to, c: callId, e: true });
    },
    async follow() {
      followers++;
      if (shared) listening ??= listen();
      await listening;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        if (--followers > 0 || !listening) return;
        const closing = listening;
        listening = null;
        void closing.then((client) => client?.end()).catch(() => {});
      };
    },
    async close() {
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = null;
      const client = await listening;
      listening = null;
      await client?.end().catch(() => {});
    },
  };
}
