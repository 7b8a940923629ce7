import { useState } from 'react';
import { ScrollTable } from '../../components/ScrollTable';
import { Button, Code, CopyButton, Group, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { CampaignPicker } from '../analytics/CampaignPicker';
import { useCampaignTitles } from '../campaigns/queries';

import { useContactIntegrations, useCreateContactIntegration } from './queries';
import { ShownOnce } from './ShownOnce';
import { useFormat } from '../../format/useFormat';

const PATH = '/api/v1/contact-creation-integration/create-contact';

/** Ready-to-paste uses of a token: a curl command (Authorization: Bearer) and an HTML form (the token as a form field). */
export function examples(origin: string, token: string) {
  const url = `${origin}${PATH}`;
  const curl = [
    `curl -X POST '${url}' \\`,
    `  -H 'Authorization: Bearer ${token}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '{"phone": "+12025550123", "name": "Jane Doe", "contact_data": {"source": "website"}}'`,
  ].join('\n');
  const html = [
    `<form method="post" action="${url}">`,
    `  <input type="hidden" name="token" value="${token}">`,
    `  <label>Name <input name="name" autocomplete="name"></label>`,
    `  <label>Phone <input name="phone" type="tel" autocomplete="tel" required></label>`,
    `  <button type="submit">Call me back</button>`,
    `</form>`,
  ].join('\n');
  return { curl, html };
}

function Example({ title, code, copyLabel }: { title: string; code: string; copyLabel: string }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Title order={4}>{title}</Title>
        <CopyButton value={code}>{({ copied, copy }) => <Button size="xs" variant="default" onClick={copy}>{copied ? 'Copied' : copyLabel}</Button>}</CopyButton>
      </Group>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{code}</Code>
    </Stack>
  );
}

/** Contact-creation integrations: a token per integration, shown once, with examples built from this origin. */
export function ContactCreation() {
  const { time: when } = useFormat();
  const [name, setName] = useState('');
  const [campaigns, setCampaigns] = useState<string[]>([]);
  const [autoStart, setAutoStart] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  const list = useContactIntegrations();
  const create = useCreateContactIntegration();
  const submit = () => create.mutate({ name, campaign_ids: campaigns.map(Number), auto_start_calls: autoStart }, {
    onSuccess: (created) => {
      setToken(created.token);
      setName('');
      setCampaigns([]);
    },
  });
  const problem = create.error instanceof ApiProblem ? create.error : null;
  const placed = problem?.fields.some((f) => f.loc[0] === 'body' && ['name', 'campaign_ids', 'auto_start_calls'].includes(String(f.loc[1])));
  const rows = list.data ?? [];
  const titleOf = useCampaignTitles(rows.flatMap((i) => i.campaign_ids));
  const shown = token ? examples(window.location.origin, token) : null;
  return (
    <Stack>
      <Text>Web forms and CRMs add contacts to a campaign with an integration's token.</Text>
      <form onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <Group align="start" wrap="wrap">
          <TextInput label="Integration name" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={fieldError(create.error, 'name')} />
          <CampaignPicker label="Campaigns" required value={campaigns} onChange={setCampaigns} description="The first is the default" error={fieldError(create.error, 'campaign_ids')} />
          <Switch label="Start a call for each new contact" checked={autoStart} onChange={(e) => setAutoStart(e.currentTarget.checked)} mt={30} />
          <Button type="submit" loading={create.isPending} mt={24}>Create integration</Button>
        </Group>
      </form>
      {create.error && !placed && <Problem error={create.error} />}
      {token && shown && (
        <ShownOnce title="Integration created: its token" secret={token} copyLabel="Copy token" onClose={() => setToken(null)}>
          <Example title="curl" code={shown.curl} copyLabel="Copy curl command" />
          <Example title="HTML form" code={shown.html} copyLabel="Copy HTML form" />
          <Text size="xs" c="dimmed">Anyone who can read a page holding the form can use its token; the integration's rate limit applies.</Text>
        </ShownOnce>
      )}
      <Problem error={list.error} />
      <ScrollTable label="Contact-creation integrations table" minWidth={600}>
        <Table aria-label="Contact-creation integrations" striped>
          <Table.Thead>
            <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Campaigns</Table.Th><Table.Th>Token</Table.Th><Table.Th>Starts calls</Table.Th><Table.Th>Created</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((i) => (
              <Table.Tr key={i.id}>
                <Table.Td>{i.name}</Table.Td>
                <Table.Td>{i.campaign_ids.map(titleOf).join(', ')}</Table.Td>
                <Table.Td><Code>{i.masked_token}</Code></Table.Td>
                <Table.Td>{i.auto_start_calls ? 'yes' : 'no'}</Table.Td>
                <Table.Td>{when(i.created_at)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No contact-creation integrations yet.</Text>}
    </Stack>
  );
}
