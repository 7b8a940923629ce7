import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { LIVE_EVENT_TYPES, type LiveEvent, type LiveMessage } from './live-events';

export type { LiveEvent, LiveMessage };

/**
 * The live stream (GET /api/v1/live/events, server-sent events) as the dashboard follows it: one
 * EventSource per scope (the account, or one campaign) however many components of the page
 * listen, opened with the first listener and closed shortly after the last one leaves (a page
 * change that keeps the same scope keeps the connection).
 *
 * Resuming: after a network error the browser reconnects by itself and sends Last-Event-ID, so
 * nothing is missed. When it gives up (the connection was refused, e.g. the service restarting),
 * the stream is reopened here with `last_event_id`. When nothing can vouch that no event was
 * missed (no event id was received before the cut, or the service answered `resync`), listeners
 * receive `{ type: 'resync' }`: reload the state they show.
 */

interface Listener {
  message(m: LiveMessage): void;
  ready(): void;
}

interface Stream {
  campaignId: number | undefined;
  listeners: Set<Listener>;
  source: EventSource | null;
  /** The stream said `ready` at least once. */
  ready: boolean;
  /** The id of the last event received: where a reopened stream resumes. */
  lastId: string | null;
  /** The connection was lost since the last `ready`. */
  interrupted: boolean;
  reopen: ReturnType<typeof setTimeout> | undefined;
  closing: ReturnType<typeof setTimeout> | undefined;
}

// How long a stream outlives its last listener: the next page usually follows the same scope.
const LINGER_MS = 2000;
// After the browser gave up on a connection (a refused or failed answer), the pause before a new one.
const REOPEN_MS = 3000;

const streams = new Map<string, Stream>();
const keyOf = (campaignId: number | undefined) => (campaignId === undefined ? 'account' : `campaign ${campaignId}`);

function broadcast(stream: Stream, m: LiveMessage) {
  for (const l of [...stream.listeners]) l.message(m);
}

function open(stream: Stream) {
  const query = new URLSearchParams();
  if (stream.campaignId !== undefined) query.set('campaign_id', String(stream.campaignId));
  if (stream.lastId !== null) query.set('last_event_id', stream.lastId);
  const search = query.toString();
  const source = new EventSource(`/api/v1/live/events${search ? `?${search}` : ''}`);
  stream.source = source;
  source.addEventListener('ready', () => {
    // A new connection without a known last id starts from now: what happened in the gap is unknown.
    const missed = stream.interrupted && stream.lastId === null;
    stream.interrupted = false;
    if (missed) broadcast(stream, { type: 'resync' });
    if (!stream.ready) {
      stream.ready = true;
      for (const l of [...stream.listeners]) l.ready();
    }
  });
  source.addEventListener('resync', () => broadcast(stream, { type: 'resync' }));
  for (const type of LIVE_EVENT_TYPES) {
    source.addEventListener(type, (e: MessageEvent<string>) => {
      if (e.lastEventId) stream.lastId = e.lastEventId;
      let event: LiveEvent;
      try {
        event = JSON.parse(e.data) as LiveEvent;
      } catch {
        return; // not an event of this API's: ignored rather than breaking the page
      }
      broadcast(stream, event);
    });
  }
  source.onerror = () => {
    stream.interrupted = true;
    // CONNECTING: the browser retries by itself (with Last-Event-ID). CLOSED: it gave up; retry here.
    if (source.readyState !== EventSource.CLOSED) return;
    source.close();
    stream.source = null;
    stream.reopen = setTimeout(() => {
      stream.reopen = undefined;
      if (stream.listeners.size > 0) open(stream);
    }, REOPEN_MS);
  };
}

function subscribe(campaignId: number | undefined, listener: Listener): () => void {
  const key = keyOf(campaignId);
  let stream = streams.get(key);
  if (!stream) {
    stream = { campaignId, listeners: new Set(), source: null, ready: false, lastId: null, interrupted: false, reopen: undefined, closing: undefined };
    streams.set(key, stream);
  }
  clearTimeout(stream.closing);
  stream.listeners.add(listener);
  if (!stream.source && stream.reopen === undefined) open(stream);
  if (stream.ready) listener.ready();
  const s = stream;
  return () => {
    s.listeners.delete(listener);
    if (s.listeners.size > 0) return;
    s.closing = setTimeout(() => {
      if (s.listeners.size > 0) return;
      s.source?.close();
      clearTimeout(s.reopen);
      streams.delete(key);
    }, LINGER_MS);
  };
}

/**
 * Follows the live stream of the account (`campaignId` undefined) or of one campaign while the
 * component is shown and `enabled`. `onEvent` may change between renders (the latest is called).
 * `ready`: the stream is open, so a state read from now on misses nothing that follows.
 */
export function useLiveEvents(campaignId: number | undefined, onEvent: (m: LiveMessage) => void, enabled = true): { ready: boolean } {
  const handler = useRef(onEvent);
  useLayoutEffect(() => {
    handler.current = onEvent;
  });
  const key = keyOf(campaignId);
  const [readyKey, setReadyKey] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return undefined;
    return subscribe(campaignId, { message: (m) => handler.current(m), ready: () => setReadyKey(key) });
  }, [campaignId, key, enabled]);
  return { ready: enabled && readyKey === key };
}

/**
 * `fn` at most once per `ms`: the first call runs at once, the calls within the next `ms` run
 * once at its end (so the last change is always shown). For refetches driven by the stream,
 * which may bring hundreds of events a second on a busy account.
 */
export function useThrottled(fn: () => void, ms: number): () => void {
  const latest = useRef(fn);
  useLayoutEffect(() => {
    latest.current = fn;
  });
  const state = useRef<{ last: number; timer: ReturnType<typeof setTimeout> | undefined }>({ last: 0, timer: undefined });
  useEffect(() => () => clearTimeout(state.current.timer), []);
  return useCallback(() => {
    const s = state.current;
    if (s.timer !== undefined) return;
    const wait = s.last + ms - Date.now();
    const run = () => {
      s.timer = undefined;
      s.last = Date.now();
      latest.current();
    };
    if (wait <= 0) run();
    else s.timer = setTimeout(run, wait);
  }, [ms]);
}
