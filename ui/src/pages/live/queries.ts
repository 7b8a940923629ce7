import { useEffect, useReducer } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import { useLiveEvents, type LiveEvent } from '../../api/live-stream';
import { emptyBoard, withEvent, withSnapshot, type Board, type LiveSnapshot } from './live-board';

/** Live: the calls in progress of the account or of one campaign, kept current by the stream. */

export const liveKeys = {
  calls: (campaignId: number | undefined) => ['live-calls', campaignId ?? 'all'] as const,
};

type Action = { kind: 'event'; event: LiveEvent; now: number } | { kind: 'snapshot'; snapshot: LiveSnapshot; now: number };

const reduce = (board: Board, action: Action): Board =>
  (action.kind === 'event' ? withEvent(board, action.event, action.now) : withSnapshot(board, action.snapshot, action.now));

/**
 * The calls in progress (`campaignId` undefined: all the caller may see), with their transcript
 * so far and every turn as it is spoken. The state is read once the stream is open (so nothing
 * falls between the two) and again when the stream says events may have been missed (`resync`).
 * A component showing another campaign must be mounted afresh (a React key), as the board
 * holds one scope.
 */
export function useLiveCalls(campaignId: number | undefined, enabled = true) {
  const client = useQueryClient();
  const [board, dispatch] = useReducer(reduce, emptyBoard);
  const key = liveKeys.calls(campaignId);
  const stream = useLiveEvents(campaignId, (m) => {
    if (m.type === 'resync') void client.invalidateQueries({ queryKey: key });
    else dispatch({ kind: 'event', event: m, now: Date.now() });
  }, enabled);
  const snapshot = useQuery({
    queryKey: key,
    queryFn: () => must(api.GET('/api/v1/live/calls', { params: { query: campaignId === undefined ? {} : { campaign_id: campaignId } } })),
    // Read once the stream is open (or refused: then to show the API's answer; read again when it opens).
    enabled: enabled && stream.state !== 'connecting',
    // Only fresh: a state kept from an earlier visit lacks the events said since.
    gcTime: 0,
    refetchOnMount: 'always',
  });
  useEffect(() => {
    if (snapshot.data) dispatch({ kind: 'snapshot', snapshot: snapshot.data, now: Date.now() });
  }, [snapshot.data]);
  return { board, error: snapshot.error, isPending: enabled && board.base === null && !snapshot.error };
}
