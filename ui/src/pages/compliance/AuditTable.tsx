import { Badge, Table, Text } from '@mantine/core';
import { ScrollTable } from '../../components/ScrollTable';
import { type AuditEvent } from './model';
import { useFormat } from '../../format/useFormat';

const show = (v: unknown): string => {
  if (v === null || v === undefined) return '—';
  if (Array.isArray(v)) return v.map(show).join(v.every((x) => typeof x === 'string' && /^\d\d:\d\d/.test(x)) ? '–' : ', ');
  if (typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k} ${show(x)}`).join(', ');
  return String(v);
};

// The database hands details back with its keys reordered; a change reads before -> after.
const FIRST = ['change', 'from', 'to', 'url_before', 'url'];
const rank = (key: string) => (FIRST.includes(key) ? FIRST.indexOf(key) : FIRST.length);

/** The details object on one line: "key: value · key: value" (secrets are never recorded, so all may show). */
export const summarise = (details: AuditEvent['details']) =>
  Object.entries(details).sort(([a], [b]) => rank(a) - rank(b)).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${show(v)}`).join(' · ');

const subjectOf = (e: AuditEvent) => `${e.subject.type.replace(/_/g, ' ')}${e.subject.id !== null ? ` ${e.subject.id}` : ''}`;

/** One page of audit events: when, who, what kind, about what, the details summarised, from where. */
export function AuditTable({ rows }: { rows: AuditEvent[] }) {
  const { time: when } = useFormat();
  return (
    <ScrollTable label="Audit log table" minWidth={980}>
      <Table striped aria-label="Audit log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Subject</Table.Th>
            <Table.Th>Details</Table.Th>
            <Table.Th>IP</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td>{when(e.created_at)}</Table.Td>
              <Table.Td>{e.actor.label}<Text size="xs" c="dimmed">{e.actor.type.replace('_', '-')}</Text></Table.Td>
              <Table.Td><Badge variant="light" color="gray" tt="none">{e.kind}</Badge></Table.Td>
              <Table.Td>{subjectOf(e)}</Table.Td>
              <Table.Td><Text size="sm" maw={360} style={{ wordBreak: 'break-word' }}>{summarise(e.details)}</Text></Table.Td>
              <Table.Td title={e.user_agent ?? undefined}>{e.ip ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
