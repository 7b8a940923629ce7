import type { LiveEvent } from '../../api/live-events';
import type { Answer } from '../../api/types';

/**
 * The calls in progress as the Live page shows them: the state GET /live/calls answered, with the
 * stream's events after its `last_event_id` applied on top. Pure functions over plain data, so
 * the page's reducer is these and nothing else.
 *
 * The stream is opened before the state is read, and every event received is kept (the last
 * LOG_LIMIT): when the state arrives, the events it does not include yet (ids above its
 * last_event_id) are applied to it, so nothing said between the two is lost or said twice.
 */
export type LiveSnapshot = Answer<'list_live_calls'>;
export type Turn = { role: string; text: string };

export interface LiveCallView {
  id: number;
  campaign_id: number;
  campaign_title: string | null;
  contact_id: number;
  contact_name: string | null;
  phone_number: string;
  direction: string;
  start_time: string | null;
  answered: boolean;
  transcript: Turn[];
  /** Set by call.ended: the outcome, shown for ENDED_SHOWN_MS after `at` (the browser's clock), then the call leaves. */
  ended: { status: string; action_status: string | null; call_duration: number | null; at: number } | null;
}

export interface Board {
  calls: ReadonlyMap<number, LiveCallView>;
  /** The last_event_id of the state read; null until it arrives (events are only kept meanwhile). */
  base: string | null;
  log: readonly LiveEvent[];
}

export const ENDED_SHOWN_MS = 8000;
const LOG_LIMIT = 2000;

export const emptyBoard: Board = { calls: new Map(), base: null, log: [] };

const isAfter = (id: string, base: string) => BigInt(id) > BigInt(base);

/** The state just read, with the events received since it was taken; calls that ended lately stay until their time is up. */
export function withSnapshot(board: Board, snapshot: LiveSnapshot, now: number): Board {
  const calls = new Map<number, LiveCallView>(snapshot.calls.map((c) => [c.id, { ...c, transcript: [...c.transcript], ended: null }]));
  for (const [id, call] of board.calls) if (call.ended && !calls.has(id)) calls.set(id, call);
  for (const event of board.log) if (isAfter(event.id, snapshot.last_event_id)) applyEvent(calls, event, now);
  return { calls, base: snapshot.last_event_id, log: board.log };
}

/** One event of the stream: kept, and applied unless the state read already holds it. */
export function withEvent(board: Board, event: LiveEvent, now: number): Board {
  const log = board.log.length >= LOG_LIMIT ? [...board.log.slice(1 - LOG_LIMIT), event] : [...board.log, event];
  if (board.base === null || !isAfter(event.id, board.base)) return { ...board, log };
  const calls = new Map(board.calls);
  for (const [id, call] of calls) if (call.ended && now - call.ended.at >= ENDED_SHOWN_MS) calls.delete(id);
  applyEvent(calls, event, now);
  return { ...board, calls, log };
}

function applyEvent(calls: Map<number, LiveCallView>, event: LiveEvent, now: number) {
  if (!('call_id' in event)) return; // a campaign's event changes no call
  const call = calls.get(event.call_id);
  switch (event.type) {
    case 'call.started':
      // Listed by the state and announced by the stream: one call (the API says to match by id).
      if (!call) {
        calls.set(event.call_id, {
          id: event.call_id, campaign_id: event.campaign_id, campaign_title: event.campaign_title, contact_id: event.contact_id,
          contact_name: event.contact_name, phone_number: event.phone_number, direction: event.direction, start_time: event.start_time,
          answered: false, transcript: [], ended: null,
        });
      }
      return;
    case 'call.answered':
      if (call) calls.set(call.id, { ...call, answered: true });
      return;
    case 'call.turn':
      if (call) calls.set(call.id, { ...call, answered: true, transcript: [...call.transcript, { role: event.role, text: event.text }] });
      return;
    case 'call.ended':
      if (call && !call.ended) calls.set(call.id, { ...call, ended: { status: event.status, action_status: event.action_status, call_duration: event.call_duration, at: now } });
      return;
    default:
  }
}

/** The calls to show now (those that ended less than ENDED_SHOWN_MS ago included), oldest first. */
export function shownCalls(board: Board, now: number): LiveCallView[] {
  return [...board.calls.values()].filter((c) => !c.ended || now - c.ended.at < ENDED_SHOWN_MS).sort((a, b) => a.id - b.id);
}

/** The calls by campaign, campaigns by title. */
export function byCampaign(calls: LiveCallView[]): { campaignId: number; title: string; calls: LiveCallView[] }[] {
  const groups = new Map<number, { campaignId: number; title: string; calls: LiveCallView[] }>();
  for (const call of calls) {
    const group = groups.get(call.campaign_id) ?? { campaignId: call.campaign_id, title: call.campaign_title ?? `Campaign ${call.campaign_id}`, calls: [] };
    group.calls.push(call);
    groups.set(call.campaign_id, group);
  }
  return [...groups.values()].sort((a, b) => a.title.localeCompare(b.title) || a.campaignId - b.campaignId);
}

/** Minutes and seconds from `from` to `to` ("2:05"); "0:00" before the call has a start time. */
export function elapsed(from: string | null, to: number): string {
  if (!from) return '0:00';
  const seconds = Math.max(0, Math.floor((to - Date.parse(from)) / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
