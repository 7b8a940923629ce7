import { Alert, Anchor, Badge, Card, Code, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { idFromPath, isNotFound, NotFound } from '../components/NotFound';
import { Problem } from '../components/Problem';
import { useFormat } from '../format/useFormat';
import { analysisOf, callerIdOf, contactNameOf, optOutOf, transcriptOf } from './calls/call-data';
import { CallAnalysis } from './calls/CallAnalysis';
import { CallControls } from './calls/CallControls';
import { CallDeliveries } from './calls/CallDeliveries';
import { useCall } from './calls/queries';
import { useLiveCalls } from './live/queries';
import { Transcript } from './live/Transcript';
import { CallScoreCard } from './quality/CallScoreCard';

const FOUND_BY: Partial<Record<string, string>> = { assistant: 'the assistant', llm: 'the language model', offline: 'the built-in phrases' };

/** One call: the conversation, the recording, the figures and the contact; live while it is in progress. */
export default function Call() {
  const param = useParams().id;
  const id = idFromPath(param);
  const call = useCall(id ?? 0, id !== null);
  const f = useFormat();
  const c = call.data;
  const inProgress = c?.status === 'in progress';
  // While the call runs its transcript is on the live stream only (the call keeps it from its end).
  const live = useLiveCalls(undefined, inProgress);
  if (id === null || isNotFound(call.error)) return <NotFound what="call" value={param} back={{ to: '/calls', label: 'All calls' }} />;
  if (call.error) return <Problem error={call.error} />;
  if (!c) return <Text>Loading call {id}…</Text>;
  const transcript = inProgress ? live.board.calls.get(c.id)?.transcript ?? [] : transcriptOf(c);
  const callerId = callerIdOf(c);
  const optOut = optOutOf(c);
  const analysis = analysisOf(c);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Call {c.id}</Title>
        <Anchor component={Link} to="/calls">All calls</Anchor>
      </Group>
      {c.status === 'in progress' && <CallControls callId={c.id} />}
      <SimpleGrid cols={{ base: 2, sm: 3 }}>
        <Figure label="Status" value={<Badge>{f.callStatus(c.status)}</Badge>} />
        <Figure label="Outcome" value={f.outcome(c.action_status)} />
        <Figure label="Duration" value={c.call_duration != null ? `${c.call_duration} s` : '—'} />
        <Figure label="Cost" value={c.cost != null ? f.money(c.cost) : '—'} />
        <Figure label="Started" value={c.start_time ? f.time(c.start_time) : '—'} />
        <Figure label="Type" value={f.callType(c.call_type)} />
      </SimpleGrid>
      <Text size="sm">
        Campaign {c.campaign_title}
        {' · '}<Anchor component={Link} to={`/contacts/${c.contact_id}`}>{contactNameOf(c) || `Contact ${c.contact_id}`}</Anchor> ({c.call_type === 'inbound' ? c.from_number : c.to_number})
        {c.call_ended_by_reason ? ` · ${c.call_ended_by_reason}` : ''}
      </Text>
      {callerId && (
        <Text size="sm">Called from {callerId.number ?? 'the provider\'s default number'}: {callerId.reason}</Text>
      )}
      {optOut && (
        <Alert color="red" title="Asked not to be called again" role="status">
          Found by {FOUND_BY[optOut.detected_by] ?? optOut.detected_by}
          {optOut.phrase ? ` ("${optOut.phrase}")` : ''}: the number is on the do-not-call list and the contact will not be called again.
        </Alert>
      )}
      {c.record_url && (
        <Paper withBorder p="sm">
          <Text size="sm" mb={4}>Recording</Text>
          <audio controls src={c.record_url} aria-label="Call recording" style={{ width: '100%' }} />
          <Anchor href={c.record_url} download size="sm">Download recording</Anchor>
        </Paper>
      )}
      {analysis && <CallAnalysis analysis={analysis} />}
      {!inProgress && <CallScoreCard callId={c.id} />}
      <Title order={3}>Transcript</Title>
      <Transcript turns={transcript} label="Transcript" live={inProgress} announce empty={inProgress ? 'Nothing said yet.' : 'No transcript.'} />
      <Title order={3}>Contact data</Title>
      <Code block>{JSON.stringify(c.contact_data ?? {}, null, 2)}</Code>
      <CallDeliveries callId={c.id} />
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">{label}</Text>
      <Text fw={600}>{value}</Text>
    </Card>
  );
}
