import { Badge, Box, Card, Group, List, Loader, Stack, Text, Title } from '@mantine/core';
import { Problem } from '../../components/Problem';
import { useFormat } from '../../format/useFormat';
import { useRun, type Run } from './queries';

// Filled badges with 4.5:1 contrast (as PromptHistory.tsx).
export const RUN_COLOR: Record<Run['status'], { color: string; c: string }> = {
  queued: { color: 'gray.3', c: 'dark.9' },
  running: { color: 'blue.9', c: 'white' },
  passed: { color: 'teal.9', c: 'white' },
  failed: { color: 'red.9', c: 'white' },
  inconclusive: { color: 'yellow.3', c: 'dark.9' },
  error: { color: 'red.9', c: 'white' },
};

const ENDED: Record<string, string> = {
  agent: 'the agent ended the call', transfer: 'the agent transferred the call', persona: 'the caller hung up',
  max_turns: 'the turn limit was reached', time_limit: 'the time limit was reached', agent_error: 'the agent failed',
};

type Turn = Run['transcript'][number];
const toolText = (tool: NonNullable<Turn['tool']>) => {
  const { name, ...args } = tool as { name: string } & Record<string, unknown>;
  const shown = Object.entries(args).filter(([, v]) => v !== null && v !== undefined && v !== '').map(([k, v]) => `${k}: ${String(v)}`).join(', ');
  return `${name}${shown ? ` (${shown})` : ''}`;
};

/** One run: the conversation as chat bubbles (agent left, caller right, tool calls between), then each criterion's verdict with its reason. */
export function RunView({ campaignId, runId, promptLabel }: { campaignId: number; runId: number; promptLabel?: (historyId: number) => string }) {
  const run = useRun(campaignId, runId);
  const { time } = useFormat();
  if (run.error) return <Problem error={run.error} />;
  const r = run.data;
  if (!r) return <Loader aria-label="Loading the run" />;
  const color = RUN_COLOR[r.status];
  return (
    <Card withBorder padding="md" component="article" aria-label={`Test run ${r.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={4}>Run {r.id}</Title>
          <Badge variant="filled" color={color.color} c={color.c}>{r.status}</Badge>
        </Group>
        <Text size="sm">
          {time(r.created_at)}{r.prompt_history_id ? `, ${promptLabel?.(r.prompt_history_id) ?? `prompt entry #${r.prompt_history_id}`}` : ''}{r.ended_by ? `; ${ENDED[r.ended_by] ?? r.ended_by}` : ''}
          {r.judge ? `; judged ${r.judge === 'llm' ? 'by the language model' : 'offline'}` : ''}
        </Text>
        {(r.status === 'queued' || r.status === 'running') && <Group gap="xs"><Loader size="xs" /><Text size="sm" role="status">The conversation is being played…</Text></Group>}
        {r.error && <Text c="red.9" role="alert">{r.error}</Text>}
        {r.transcript.length > 0 && (
          <Stack gap={6} role="log" aria-label="Conversation">
            {r.transcript.map((t, i) => (t.role === 'tool'
              ? <Text key={i} size="xs" ta="center" c="dimmed" ff="monospace">⚙ {toolText(t.tool!)}</Text>
              : (
                <Box key={i} style={{ alignSelf: t.role === 'agent' ? 'flex-start' : 'flex-end', maxWidth: '85%' }}>
                  <Text size="xs" c="dimmed" ta={t.role === 'agent' ? 'left' : 'right'}>{t.role === 'agent' ? 'Agent' : 'Caller'}</Text>
                  <Box
                    px="sm" py={6}
                    style={{
                      borderRadius: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-word',
                      background: t.role === 'agent' ? 'var(--mantine-color-gray-1)' : 'var(--mantine-color-blue-1)', color: 'var(--mantine-color-dark-9)',
                    }}
                  >
                    {t.text}
                  </Box>
                </Box>
              )))}
          </Stack>
        )}
        {r.verdicts.length > 0 && (
          <Stack gap={4}>
            <Title order={5}>Criteria</Title>
            <List spacing={6} listStyleType="none" aria-label="Verdicts">
              {r.verdicts.map((v, i) => (
                <List.Item key={i}>
                  <Text fw={600} span c={v.passed === true ? 'teal.9' : v.passed === false ? 'red.9' : 'dark.6'}>
                    {v.passed === true ? '✓ Met' : v.passed === false ? '✗ Not met' : '? Not judged'}:
                  </Text>{' '}
                  <Text span>{v.criterion}</Text>
                  <Text size="sm" c="dimmed">{v.reason}</Text>
                </List.Item>
              ))}
            </List>
          </Stack>
        )}
        <Text size="xs" c="dimmed">
          Cost: {r.cost.llm_requests} LLM request{r.cost.llm_requests === 1 ? '' : 's'}, {r.cost.prompt_tokens} prompt and {r.cost.completion_tokens} completion tokens
          {r.cost.duration_ms !== null ? `, ${(r.cost.duration_ms / 1000).toFixed(1)} s` : ''}
        </Text>
      </Stack>
    </Card>
  );
}
