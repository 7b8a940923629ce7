import { Anchor, Badge, Button, Checkbox, Table, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ScrollTable } from '../../components/ScrollTable';
import { useFormat } from '../../format/useFormat';
import { type Contact, displayNameOf, STATUS_COLOR } from './shared';

type Props = {
  rows: Contact[];
  selected: Map<number, Contact>;
  onSelect: (contacts: Contact[], on: boolean) => void;
  onEdit: (contact: Contact) => void;
};

/** One page of contacts with a checkbox per row (and one for the whole page) a link to the contact's page (its attempts) and an Edit button. */
export function ContactsTable({ rows, selected, onSelect, onEdit }: Props) {
  const f = useFormat();
  const onPage = rows.filter((c) => selected.has(c.id)).length;
  return (
    <ScrollTable label="Contacts table" minWidth={760}>
      <Table striped highlightOnHover aria-label="Contacts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox
                aria-label="Select all on this page" checked={rows.length > 0 && onPage === rows.length}
                indeterminate={onPage > 0 && onPage < rows.length} disabled={rows.length === 0}
                onChange={(e) => onSelect(rows, e.currentTarget.checked)}
              />
            </Table.Th>
            <Table.Th>Phone number</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Campaign</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Next action</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((c) => (
            <Table.Tr key={c.id} bg={selected.has(c.id) ? 'var(--mantine-color-blue-light)' : undefined}>
              <Table.Td>
                <Checkbox aria-label={`Select ${c.phone_number}`} checked={selected.has(c.id)} onChange={(e) => onSelect([c], e.currentTarget.checked)} />
              </Table.Td>
              <Table.Td><Anchor component={Link} to={`/contacts/${c.id}`}>{c.phone_number}</Anchor></Table.Td>
              <Table.Td><Badge variant="light" color={STATUS_COLOR[c.status] ?? 'gray'}>{f.contactStatus(c.status)}</Badge></Table.Td>
              <Table.Td>{c.campaign_title ?? `Campaign ${c.campaign_id}`}</Table.Td>
              <Table.Td>{displayNameOf(c)}</Table.Td>
              <Table.Td>{c.calls_attempts ?? 0}</Table.Td>
              <Table.Td>
                {c.next_action_time || c.next_action_reason ? (
                  <>
                    <Text size="sm">{f.time(c.next_action_time)}</Text>
                    {c.next_action_reason && <Text size="xs" c="dimmed">{f.sentence(c.next_action_reason)}</Text>}
                  </>
                ) : ''}
              </Table.Td>
              <Table.Td>
                <Button size="xs" variant="default" onClick={() => onEdit(c)} aria-label={`Edit ${c.phone_number}`}>Edit</Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
