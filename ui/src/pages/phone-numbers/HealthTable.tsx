import { Badge, Button, Table, Text } from '@mantine/core';
import type { Answer } from '../../api/types';
import { ScrollTable } from '../../components/ScrollTable';
import type { Format } from '../../format/useFormat';

export type NumberHealth = Answer<'list_phone_number_health'>['data'][number];
export type AccountFigures = Answer<'list_phone_number_health'>['account'];

export const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)}%`);

/** "Rested until 8 Jan 15:00 because answer rate 4% vs account 31%"; "Healthy"; "Not judged yet". */
export function stateSentence(n: NumberHealth, f: Format): string {
  if (n.state === 'rested') return `Rested until ${f.time(n.rested_until)} because ${n.rest_reason ?? 'it was rested'}`;
  return n.state === 'healthy' ? 'Healthy' : 'Not judged yet';
}

interface Props {
  rows: NumberHealth[];
  account: AccountFigures;
  f: Format;
  /** Present for the owner: rest a number (true) or end its rest (false). */
  onRest?: (n: NumberHealth, rest: boolean) => void;
  busy: boolean;
}

/** Each number's figures beside the account's, and its rest. */
export function HealthTable({ rows, account, f, onRest, busy }: Props) {
  return (
    <ScrollTable label="Phone numbers table" minWidth={820}>
      <Table aria-label="Phone numbers" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th><Table.Th>Campaign</Table.Th><Table.Th>Calls</Table.Th><Table.Th>Answer rate</Table.Th>
            <Table.Th>Short calls</Table.Th><Table.Th>Health</Table.Th>{onRest && <Table.Th>Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((n) => (
            <Table.Tr key={n.phone_number_id}>
              <Table.Td>{n.phone_number}</Table.Td>
              <Table.Td>{n.campaign_title ?? '—'}</Table.Td>
              <Table.Td>{n.calls}</Table.Td>
              <Table.Td>{percent(n.answer_rate)} <Text span size="xs" c="dimmed">vs account {percent(account.answer_rate)}</Text></Table.Td>
              <Table.Td>{percent(n.short_call_rate)} <Text span size="xs" c="dimmed">vs account {percent(account.short_call_rate)}</Text></Table.Td>
              <Table.Td>
                {n.state === 'rested' && <Badge color="orange" mr="xs">Rested</Badge>}
                <Text span size="sm">{stateSentence(n, f)}</Text>
              </Table.Td>
              {onRest && (
                <Table.Td>
                  {n.state === 'rested'
                    ? <Button size="xs" variant="default" disabled={busy} onClick={() => onRest(n, false)} aria-label={`End rest of ${n.phone_number}`}>End rest</Button>
                    : <Button size="xs" variant="subtle" disabled={busy} onClick={() => onRest(n, true)} aria-label={`Rest ${n.phone_number}`}>Rest</Button>}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
