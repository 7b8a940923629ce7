import { BarChart, LineChart } from '@mantine/charts';
import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Problem } from '../../components/Problem';
import { SCORE_TAG_LABELS } from '../calls/filters';
import { useScoreSummary } from './queries';

/**
 * Analytics' call scores of one campaign (GET /campaigns/{id}/scores/summary): average,
 * distribution in 10-point buckets, the average per day and per prompt version, problems found.
 */
export function ScoresPanel({ campaignId, period }: { campaignId: number | null; period: { from: string; to: string } | null }) {
  const summary = useScoreSummary(campaignId, period);
  if (campaignId === null) return null;
  if (summary.error) return <Problem error={summary.error} />;
  const s = summary.data;
  if (!s) return null;
  return (
    <Stack gap="sm" aria-label="Call scores">
      <Title order={3}>Call scores</Title>
      {s.scored === 0 ? (
        <Text size="sm" c="dimmed">No call of this campaign was scored in the period. Scoring is switched on in the campaign's scorecard.</Text>
      ) : (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Card withBorder padding="sm"><Text size="xs" c="dimmed">Average score</Text><Text fw={700} aria-label="Average score">{s.average ?? '—'}</Text></Card>
            <Card withBorder padding="sm"><Text size="xs" c="dimmed">Scored calls</Text><Text fw={700}>{s.scored}</Text></Card>
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <div>
              <Text size="sm" mb={4}>Distribution</Text>
              <BarChart h={200} data={s.distribution.map((b) => ({ bucket: `${b.from}–${b.to}`, calls: b.calls }))} dataKey="bucket" series={[{ name: 'calls', color: 'blue.6' }]} />
            </div>
            <div>
              <Text size="sm" mb={4}>Average per day</Text>
              <LineChart h={200} data={s.trend} dataKey="day" series={[{ name: 'average', color: 'teal.6' }]} yAxisProps={{ domain: [0, 100] }} curveType="linear" />
            </div>
          </SimpleGrid>
          <Table.ScrollContainer minWidth={280}>
            <Table aria-label="Scores by prompt version">
              <Table.Thead><Table.Tr><Table.Th>Prompt version</Table.Th><Table.Th>Calls</Table.Th><Table.Th>Average</Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {s.by_prompt_version.map((v) => (
                  <Table.Tr key={String(v.prompt_history_id)}>
                    <Table.Td>{v.prompt_history_id === null ? 'no prompt history' : `#${v.prompt_history_id}`}</Table.Td><Table.Td>{v.calls}</Table.Td><Table.Td>{v.average}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {s.tags.length > 0 && (
            <Group gap={6}>{s.tags.map((t) => <Badge key={t.tag} color="orange" variant="light">{SCORE_TAG_LABELS[t.tag] ?? t.tag}: {t.calls}</Badge>)}</Group>
          )}
        </>
      )}
    </Stack>
  );
}
