import { Anchor, Badge, Card, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useFormat } from '../../format/useFormat';
import { elapsed, type LiveCallView } from './live-board';
import { Transcript } from './Transcript';
import { ListenButton } from './ListenButton';

/** Where a call stands, in words and colour. */
function stateOf(call: LiveCallView): { label: string; color: string } {
  if (call.ended) return { label: 'Ended', color: 'gray' };
  return call.answered ? { label: 'Answered', color: 'green' } : { label: 'Ringing', color: 'yellow' };
}

/**
 * One call in progress: who (a link to the contact), its state, its time on the call (ticking with
 * `now`), and its transcript as it is spoken; once ended, its outcome until it leaves the board.
 * `compact`: the last turn only, for a campaign's page.
 */
export function LiveCallCard({ call, now, compact = false }: { call: LiveCallView; now: number; compact?: boolean }) {
  const f = useFormat();
  const state = stateOf(call);
  // The clock stops when the call ends.
  const until = call.ended ? Math.min(now, call.ended.at) : now;
  const last = call.transcript.at(-1);
  return (
    <Card withBorder padding="sm" component="article" aria-label={`Call ${call.id}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <div>
            <Anchor component={Link} to={`/contacts/${call.contact_id}`} fw={600}>{call.contact_name || call.phone_number}</Anchor>
            {call.contact_name && <Text size="sm">{call.phone_number}</Text>}
          </div>
          <Badge color={state.color} variant="light">{state.label}</Badge>
        </Group>
        <Group gap="xs" wrap="wrap">
          <Text size="sm">Time on call <Text span ff="monospace" fw={600}>{elapsed(call.start_time, until)}</Text></Text>
          <Text size="sm">·</Text>
          <Anchor component={Link} to={`/calls/${call.id}`} size="sm">Call {call.id}</Anchor>
          {call.direction === 'inbound' && <Text size="sm">· inbound</Text>}
        </Group>
        {call.ended && (
          <Text size="sm" fw={600} role="status">
            {f.callStatus(call.ended.status)} · outcome: {f.outcome(call.ended.action_status)}
          </Text>
        )}
        {!compact && !call.ended && call.answered && <ListenButton callId={call.id} />}
        {compact
          ? <Text size="sm" lineClamp={2}>{last ? `${last.role === 'assistant' ? 'Assistant' : 'Contact'}: ${last.text}` : call.answered ? 'Nothing said yet.' : 'Waiting for an answer.'}</Text>
          : <Transcript turns={call.transcript} label={`Transcript of call ${call.id}`} live empty={call.answered ? 'Nothing said yet.' : 'Waiting for an answer.'} />}
      </Stack>
    </Card>
  );
}
