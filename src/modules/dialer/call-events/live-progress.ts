import type { Deps } from '../../../deps.ts';
import type { CallEvent } from '../../../voice/provider.ts';
import type { Route } from '../../../voice/registry.ts';
import { insertCallProgress } from '../../live/live-events.repository.ts';
import type { LiveEventType } from '../../live/live-event-types.ts';
import { onRoute } from './route-scope.ts';

const LIVE_TYPE = { ringing: 'call.ringing', answered: 'call.answered', turn: 'call.turn' } as const satisfies Partial<Record<CallEvent['type'], LiveEventType>>;

/**
 * A vendor's progress messages (ringing, answered, each transcript turn) change nothing stored;
 * they go to the live stream, for this route's calls in progress only (one statement a batch).
 * An event that names its call only by the vendor's id is not shown (every vendor we drive
 * echoes our id: metadata, or the callback URL).
 */
export async function publishCallProgress(deps: Deps, route: Route, events: CallEvent[]): Promise<void> {
  const numbered = new Set<string>();
  const items = events.flatMap((e) => {
    if (e.callId === null || !(e.type in LIVE_TYPE)) return [];
    const type = LIVE_TYPE[e.type as keyof typeof LIVE_TYPE];
    if (type === 'call.turn' && !e.turn?.text) return [];
    // A numbered turn twice in one batch (two updates of the whole transcript) goes out once.
    if (e.turnSeq !== undefined) {
      const key = `${e.callId}|${e.turnSeq}`;
      if (numbered.has(key)) return [];
      numbered.add(key);
    }
    return [{ callId: e.callId, type, data: { at: e.at.toISOString(), ...(e.turn && { role: e.turn.role, text: e.turn.text }), ...(e.turnSeq !== undefined && { seq: e.turnSeq }) } }];
  });
  if (items.length === 0) return;
  if (await insertCallProgress(deps.db, items, onRoute('k', route, deps.config.VOICE_PROVIDER))) deps.live.wake();
}
