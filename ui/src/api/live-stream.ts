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
  /** The stream's state changed (see StreamState). */
  changed(state: StreamState): void;
}

/**
 * `ready`: the stream is open (it said `ready`), so a state read from now on misses nothing that
 * follows. `refused`: the service answered the stream with an error and it is retried later; a
 * page reads its state anyway, to show the API's answer (a 403, a 404), and is told to read it
 * again (`resync`) once the stream opens.
 */
export type StreamState = 'connecting' | 'ready' | 'refused';

interface Stream {
  campaignId: number | undefined;
  listeners: Set<Listener>;
  source: EventSource | null;
  state: StreamState;
  /** Connections refused in a row: the pause before the next one grows with them. */
  refusals: number;
  /** The id of the last event received: where a reopened stream resumes. */
  lastId: string | null;
  /** The connection was lost since the last `ready`. */
  interrupted: boolean;
  reopen: ReturnType<typeof setTimeout> | undefined;
  closing: ReturnType<typeof setTimeout> | undefined;
}

// How long a stream outlives its last listener: the next page usually follows the same scope.
const LINGER_MS = 2000;
// After the browser gave up on a connection (a refused or failed answer), the pause before a new
// one: 3 s, doubled at each refusal in a row up to a minute (a signed-out session is not hammered).
const REOPEN_MS = 3000;
const REOPEN_MAX_MS = 60_000;

const streams = new Map<string, Stream>();
const keyOf = (campaignId: number | undefined) => (campaignId === undefined ? 'account' : `campaign ${campaignId}`);

function broadcast(stream: Stream, m: LiveMessage) {
  for (const l of [...stream.listeners]) l.message(m);
}

function setState(stream: Stream, state: StreamState) {
  if (stream.state === state) return;
  stream.state = state;
  for (const l of [...stream.listeners]) l.changed(state);
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
    stream.refusals = 0;
    setState(stream, 'ready');
    if (missed) broadcast(stream, { type: 'resync' });
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
    setState(stream, 'refused');
    stream.reopen = setTimeout(() => {
      stream.reopen = undefined;
      if (stream.listeners.size > 0) open(stream);
    }, Math.min(REOPEN_MAX_MS, REOPEN_MS * 2 ** stream.refusals++));
  };
}

function subscribe(campaignId: number | undefined, listener: Listener): () => void {
  const key = keyOf(campaignId);
  let stream = streams.get(key);
  if (!stream) {
    stream = { campaignId, listeners: new Set(), source: null, state: 'connecting', refusals: 0, lastId: null, interrupted: false, reopen: undefined, closing: undefined };
    streams.set(key, stream);
  }
  clearTimeout(stream.closing);
  stream.listeners.add(listener);
  if (!stream.source && stream.reopen === undefined) open(stream);
  listener.changed(stream.state);
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
 * Answers the stream's state (StreamState); `connecting` while not enabled.
 */
export function useLiveEvents(campaignId: number | undefined, onEvent: (m: LiveMessage) => void, enabled = true): { state: StreamState } {
  const handler = useRef(onEvent);
  useLayoutEffect(() => {
    handler.current = onEvent;
  });
  const key = keyOf(campaignId);
  // The state of the stream of `key`: a state left from another scope is not this one's.
  const [seen, setSeen] = useState<{ key: string; state: StreamState } | null>(null);
  useEffect(() => {
    if (!enabled) return undefined;
    return subscribe(campaignId, { message: (m) => handler.current(m), changed: (state) => setSeen({ key, state }) });
  }, [campaignId, key, enabled]);
  return { state: enabled && seen?.key === key ? seen.state : 'connecting' };
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
