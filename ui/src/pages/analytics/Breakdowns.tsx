import { useState } from 'react';
import { ScrollTable } from '../../components/ScrollTable';
import { Box, Button, Group, SimpleGrid, Stack, Table, Title } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import { useFormat } from '../../format/useFormat';
import type { Detailed } from './model';
import { Counts } from '../../components/Counts';

/** The period's breakdowns, as answered: by status, outcome (action status), call type, campaign and hour of day. */
export function Breakdowns({ report }: { report: Detailed }) {
  const f = useFormat();
  const [hoursAsTable, setHoursAsTable] = useState(false);
  return (
    <section aria-labelledby="breakdowns">
      <Stack gap="sm">
        <Title order={3} id="breakdowns">Breakdowns</Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Counts label="Calls by status" head="Status" rows={report.by_status.map((r) => ({ name: f.callStatus(r.status), count: r.count }))} />
          <Counts label="Calls by outcome" head="Outcome" rows={report.by_action_status.map((r) => ({ name: f.outcome(r.action_status), count: r.count }))} />
          <Counts label="Calls by call type" head="Call type" rows={report.by_call_type.map((r) => ({ name: f.callType(r.call_type), count: r.count }))} />
        </SimpleGrid>
        <ScrollTable label="Calls by campaign table" minWidth={560}>
          <Table aria-label="Calls by campaign" striped>
            <Table.Thead>
              <Table.Tr><Table.Th>Campaign</Table.Th><Table.Th>Calls</Table.Th><Table.Th>Successful</Table.Th><Table.Th>Total cost</Table.Th><Table.Th>Total duration (s)</Table.Th></Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.by_campaign.map((c) => (
                <Table.Tr key={c.campaign_id}>
                  <Table.Td>{c.campaign_title ?? `Campaign ${c.campaign_id}`}</Table.Td>
                  <Table.Td>{String(c.calls)}</Table.Td>
                  <Table.Td>{String(c.successful)}</Table.Td>
                  <Table.Td>{f.money(c.total_cost)}</Table.Td>
                  <Table.Td>{String(c.total_duration)}</Table.Td>
                </Table.Tr>
              ))}
              {report.by_campaign.length === 0 && <Table.Tr><Table.Td colSpan={5}>No calls in this period.</Table.Td></Table.Tr>}
            </Table.Tbody>
          </Table>
        </ScrollTable>
        <Title order={4}>Calls by hour of day ({report.period.timezone})</Title>
        <Box role="figure" aria-label="Calls by hour of day">
          <BarChart
            h={220}
            data={report.by_hour.map((h) => ({ hour: String(h.hour).padStart(2, '0'), calls: h.count, successful: h.successful }))}
            dataKey="hour"
            series={[{ name: 'calls', label: 'Calls', color: 'blue.6' }, { name: 'successful', label: 'Successful', color: 'teal.6' }]}
            withLegend
          />
        </Box>
        <Group>
          <Button variant="subtle" size="xs" onClick={() => setHoursAsTable((v) => !v)} aria-expanded={hoursAsTable}>
            {hoursAsTable ? 'Hide hours as a table' : 'Show hours as a table'}
          </Button>
        </Group>
        {hoursAsTable && (
          <Table aria-label="Calls by hour of day" striped>
            <Table.Thead><Table.Tr><Table.Th>Hour</Table.Th><Table.Th>Calls</Table.Th><Table.Th>Successful</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {report.by_hour.map((h) => <Table.Tr key={h.hour}><Table.Td>{String(h.hour)}</Table.Td><Table.Td>{String(h.count)}</Table.Td><Table.Td>{String(h.successful)}</Table.Td></Table.Tr>)}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </section>
  );
}
