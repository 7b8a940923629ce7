import { Anchor, Badge, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { Problem } from '../../components/Problem';
import { ScrollTable } from '../../components/ScrollTable';
import { useFormat } from '../../format/useFormat';
import { useContacts } from '../contacts/queries';
import { displayNameOf, STATUS_COLOR } from '../contacts/shared';

const FIRST = 10;

/** The first contacts of the campaign (the contacts list's first page for it) and a link to all of them. */
export function CampaignContacts({ campaignId }: { campaignId: number }) {
  const f = useFormat();
  const list = useContacts({ campaign_id: [campaignId], skip: 0, limit: FIRST });
  const rows = list.data?.data ?? [];
  const total = list.data?.count ?? 0;
  const about = list.data?.count_exact === false ? 'about ' : '';
  return (
    <Card withBorder component="section" aria-labelledby="campaign-contacts">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} id="campaign-contacts">Contacts</Title>
          <Anchor component={Link} to={`/contacts?campaign_id=${campaignId}`}>All {about}{total} contacts of the campaign</Anchor>
        </Group>
        <Problem error={list.error} />
        {list.isPending && <Loader size="sm" aria-label="Loading the contacts" />}
        {!list.isPending && rows.length === 0 && <Text c="dimmed">No contacts yet.</Text>}
        {rows.length > 0 && (
          <ScrollTable label="Campaign contacts table" minWidth={520}>
            <Table striped aria-label="Campaign contacts">
              <Table.Thead>
                <Table.Tr><Table.Th>Phone number</Table.Th><Table.Th>Name</Table.Th><Table.Th>Status</Table.Th><Table.Th>Attempts</Table.Th></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td><Anchor component={Link} to={`/contacts/${c.id}`}>{c.phone_number}</Anchor></Table.Td>
                    <Table.Td>{displayNameOf(c)}</Table.Td>
                    <Table.Td><Badge variant="light" color={STATUS_COLOR[c.status] ?? 'gray'}>{f.contactStatus(c.status)}</Badge></Table.Td>
                    <Table.Td>{c.calls_attempts ?? 0}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
        {total > rows.length && <Text size="sm" c="dimmed">The first {rows.length} of {about}{total}.</Text>}
      </Stack>
    </Card>
  );
}
