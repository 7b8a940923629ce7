import { useState } from 'react';
import { ScrollTable } from '../../components/ScrollTable';
import { Box, Button, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { LineChart } from '@mantine/charts';
import type { Query } from '../../api/types';
import { Problem } from '../../components/Problem';
import { useFormat } from '../../format/useFormat';
import { bucketLabel, TREND_METRICS, type Granularity, type TrendMetric, type Trends } from './model';
import { useTrend } from './queries';

/** The period and filters the figures and the trend share. */
export type ReportQuery = Omit<Query<'read_analytics_trends'>, 'metric' | 'granularity'>;

/** The trend of one metric per bucket (every bucket present, zeros included) as a line chart, with its total. */
export function Trend({ query, granularity }: { query: ReportQuery | null; granularity: string }) {
  const f = useFormat();
  const [metric, setMetric] = useState<TrendMetric>('calls');
  const [asTable, setAsTable] = useState(false);
  const params = { ...query, metric, ...(granularity === 'auto' ? {} : { granularity: granularity as Granularity }) };
  const trend = useTrend(params, query !== null);
  const data: Trends | undefined = trend.data;
  const label = TREND_METRICS.find((m) => m.value === metric)?.label ?? metric;
  const points = (data?.buckets ?? []).map((b) => ({ bucket: bucketLabel(b.start, data!.granularity, f), value: b.value }));
  // Cost reads as money, like every amount on the dashboard; the chart's axis keeps plain numbers.
  const value = (v: number) => (metric === 'cost' ? f.money(v) : String(v));
  return (
    <section aria-labelledby="trend">
      <Stack gap="sm">
        <Title order={3} id="trend">Trend</Title>
        <Group align="end" wrap="wrap">
          <Select label="Metric" data={TREND_METRICS} value={metric} onChange={(v) => v && setMetric(v as TrendMetric)} allowDeselect={false} w={220} />
          {data && (
            <Text size="sm">
              {label} per {data.granularity}, total: <Text span fw={700}>{value(data.total)}</Text>
            </Text>
          )}
        </Group>
        <Problem error={trend.error} />
        {data && (
          <>
            <Box role="figure" aria-label={`Trend of ${label} per ${data.granularity}`}>
              <LineChart h={260} data={points} dataKey="bucket" series={[{ name: 'value', label, color: 'blue.6' }]} curveType="linear" withDots={points.length <= 62} />
            </Box>
            <Group>
              <Button variant="subtle" size="xs" onClick={() => setAsTable((v) => !v)} aria-expanded={asTable}>
                {asTable ? 'Hide trend values' : 'Show trend values'}
              </Button>
            </Group>
            {asTable && (
              <ScrollTable label="Trend values table" minWidth={320}>
                <Table aria-label="Trend values" striped>
                  <Table.Thead><Table.Tr><Table.Th>Bucket start</Table.Th><Table.Th>{label}</Table.Th></Table.Tr></Table.Thead>
                  <Table.Tbody>
                    {data.buckets.map((b, i) => (
                      <Table.Tr key={b.start}><Table.Td>{points[i]?.bucket}</Table.Td><Table.Td>{value(b.value)}</Table.Td></Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollTable>
            )}
          </>
        )}
      </Stack>
    </section>
  );
}
