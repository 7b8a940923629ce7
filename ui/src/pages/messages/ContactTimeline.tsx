import { Anchor, Badge, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { Problem } from '../../components/Problem';
import { useFormat } from '../../format/useFormat';
import { MESSAGE_STATUS_COLOR } from './MessagesTable';
import { useContactTimeline, type TimelineItem } from './queries';

/** A contact's calls and texts in one list, oldest first as a conversation reads; texts received sit on the left, sent on the right. */
export function ContactTimeline({ contactId }: { contactId: number }) {
  const timeline = useContactTimeline(contactId);
  const items = timeline.data?.data ?? [];
  return (
    <Stack component="section" aria-labelledby="contact-timeline" gap="sm">
      <Title order={3} id="contact-timeline">Timeline</Title>
      <Problem error={timeline.error} />
      {timeline.isPending && <Loader size="sm" aria-label="Loading the timeline" />}
      {timeline.data?.truncated && <Text size="sm" c="dimmed">Older calls and texts are left out; the Calls and Messages lists have them all.</Text>}
      {timeline.isSuccess && items.length === 0 && <Text c="dimmed">No calls or texts yet.</Text>}
      {items.length > 0 && (
        <Stack component="ol" aria-label="Calls and texts" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((item) => <Entry key={item.kind === 'call' ? `c${item.call?.id}` : `m${item.message?.id}`} item={item} />)}
        </Stack>
      )}
    </Stack>
  );
}

function Entry({ item }: { item: TimelineItem }) {
  const f = useFormat();
  if (item.kind === 'call' && item.call) {
    const c = item.call;
    return (
      <li data-call-id={c.id}>
        <Card withBorder padding="xs" bg="gray.0">
          <Group gap="xs" wrap="wrap">
            <Anchor component={Link} to={`/calls/${c.id}`} fw={600}>Call {c.id}</Anchor>
            <Badge variant="light">{f.callStatus(c.status)}</Badge>
            {c.action_status && <Badge variant="light" color="green">{f.outcome(c.action_status)}</Badge>}
            {c.call_duration != null && <Text size="sm">{c.call_duration} s</Text>}
            <Text size="sm" c="dimmed">{f.time(item.at)}</Text>
          </Group>
        </Card>
      </li>
    );
  }
  const m = item.message!;
  const d = m.message_data;
  const inbound = d.direction === 'inbound';
  return (
    <li data-message-id={m.id} style={{ display: 'flex', justifyContent: inbound ? 'flex-start' : 'flex-end' }}>
      <Card withBorder padding="xs" maw="80%" bg={inbound ? 'white' : 'blue.0'}>
        <Text size="xs" c="dimmed">
          {inbound ? 'Received' : 'Sent'} · {f.channel(m.source)}{d.purpose ? ` · ${f.messagePurpose(d.purpose)}` : ''} · {f.time(m.create_datetime)}
        </Text>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{m.message}</Text>
        <Group gap="xs" mt={4}>
          <Badge size="sm" variant="light" color={MESSAGE_STATUS_COLOR[d.status] ?? 'gray'}>{f.messageStatus(d.status)}</Badge>
          {d.segments != null && <Text size="xs" c="dimmed">{d.segments} segment{d.segments === 1 ? '' : 's'}</Text>}
        </Group>
        {d.error_words && <Text size="xs" c="red.9">{d.error_words}</Text>}
      </Card>
    </li>
  );
}
