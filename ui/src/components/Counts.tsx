import { Table } from '@mantine/core';

/** Calls counted by one dimension, a row per value (the analytics page and a campaign's outcomes). */
export function Counts({ label, head, rows }: { label: string; head: string; rows: { name: string; count: number }[] }) {
  return (
    <Table aria-label={label} striped>
      <Table.Thead><Table.Tr><Table.Th>{head}</Table.Th><Table.Th>Calls</Table.Th></Table.Tr></Table.Thead>
      <Table.Tbody>
        {rows.map((r) => <Table.Tr key={r.name}><Table.Td>{r.name}</Table.Td><Table.Td>{String(r.count)}</Table.Td></Table.Tr>)}
      </Table.Tbody>
    </Table>
  );
}
