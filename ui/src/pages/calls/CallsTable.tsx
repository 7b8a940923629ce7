import { Anchor, Badge, Table } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ScrollTable } from '../../components/ScrollTable';
import { useFormat } from '../../format/useFormat';
import { contactNameOf } from './call-data';
import type { CallItem } from './filters';

const STATUS_COLOR: Record<string, string> = { 'in progress': 'blue', finished: 'green', new: 'gray' };

/** One page of calls, as the API answered it (newest first). */
export function CallsTable({ rows }: { rows: CallItem[] }) {
  const f = useFormat();
  return (
    <ScrollTable label="Calls table" minWidth={860}>
      <Table striped aria-label="Calls">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Call</Table.Th>
            <Table.Th>Campaign</Table.Th>
            <Table.Th>Contact</Table.Th>
            <Table.Th>Number</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th>Duration</Table.Th>
            <Table.Th>Cost</Table.Th>
            <Table.Th>Started</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((c) => (
            <Table.Tr key={c.id} data-call-id={c.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}><Anchor component={Link} to={`/calls/${c.id}`}>Call {c.id}</Anchor></Table.Td>
              <Table.Td>{c.campaign_title}</Table.Td>
              <Table.Td>{contactNameOf(c)}</Table.Td>
              <Table.Td>{c.call_type === 'inbound' ? c.from_number : c.to_number}</Table.Td>
              <Table.Td>{f.callType(c.call_type)}</Table.Td>
              <Table.Td><Badge variant="light" color={STATUS_COLOR[c.status] ?? 'gray'}>{f.callStatus(c.status)}</Badge></Table.Td>
              <Table.Td>{c.action_status ? f.outcome(c.action_status) : ''}</Table.Td>
              <Table.Td>{c.call_duration != null ? `${c.call_duration} s` : ''}</Table.Td>
              <Table.Td>{f.money(c.cost)}</Table.Td>
              <Table.Td>{f.time(c.start_time)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
