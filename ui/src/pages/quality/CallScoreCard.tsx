import { Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Problem } from '../../components/Problem';
import { SCORE_TAG_LABELS } from '../calls/filters';
import { useCallScore, type CallScoreView } from './queries';

const STATUS_TEXT: Record<CallScoreView['status'], string> = {
  not_scored: 'Not scored: the campaign\'s scorecard was off when the call ended.',
  pending: 'Waiting to be scored (after the call\'s webhooks).',
  scored: '',
  failed: 'The judge failed; no score.',
  needs_model: 'Needs a language model: set LLM_BASE_URL to score calls. No score is guessed without one.',
  no_transcript: 'No transcript to judge.',
};

const answerText = (a: CallScoreView['answers'][number]) =>
  a.answer === null ? 'could not tell' : a.type === 'boolean' ? (a.answer ? 'Yes' : 'No') : a.type === 'scale' ? `${a.answer} / 5` : String(a.answer);

/** The call's score on its campaign's scorecard (GET /calls/{id}/score): the score, each answer with its reason, the problems found. */
export function CallScoreCard({ callId }: { callId: number }) {
  const score = useCallScore(callId);
  if (score.error) return <Problem error={score.error} />;
  const s = score.data;
  // A campaign without scoring: nothing to show on its calls' pages (the campaign's scorecard says why).
  if (!s || s.status === 'not_scored') return null;
  return (
    <Card withBorder padding="sm" aria-label="Call score">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3}>Score</Title>
          {s.status === 'scored' && <Text fw={700} size="xl" aria-label="Score value">{s.score === null ? '—' : `${s.score} / 100`}</Text>}
        </Group>
        {s.status !== 'scored' && <Text size="sm">{STATUS_TEXT[s.status]}{s.error && s.status !== 'needs_model' ? ` ${s.error}` : ''}</Text>}
        {s.tags.length > 0 && (
          <Group gap={6} aria-label="Problems found">
            {s.tags.map((t) => <Badge key={t} color="orange" variant="light">{SCORE_TAG_LABELS[t] ?? t}</Badge>)}
          </Group>
        )}
        {s.answers.length > 0 && (
          <Table.ScrollContainer minWidth={320}>
            <Table verticalSpacing={4} aria-label="Scorecard answers">
              <Table.Thead><Table.Tr><Table.Th>Question</Table.Th><Table.Th>Answer</Table.Th><Table.Th>Why</Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {s.answers.map((a) => (
                  <Table.Tr key={a.key}>
                    <Table.Td>{a.question}<Text size="xs" c="dimmed">weight {a.weight}</Text></Table.Td>
                    <Table.Td>{answerText(a)}</Table.Td>
                    <Table.Td><Text size="sm">{a.reason ?? ''}</Text></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {s.method && <Text size="xs" c="dimmed">Judged by {s.method.replace(/^llm:/, '')}</Text>}
      </Stack>
    </Card>
  );
}
