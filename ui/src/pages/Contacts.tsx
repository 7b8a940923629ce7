import { useState } from 'react';
import { Button, Group, Modal, Pagination, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useSearchParams } from 'react-router-dom';
import { notifications } from '@mantine/notifications';
import { Problem } from '../components/Problem';
import { useCampaignOptions } from './campaigns/queries';
import { ContactForm } from './contacts/ContactForm';
import { ContactsTable } from './contacts/ContactsTable';
import { CsvImport } from './contacts/CsvImport';
import { useContacts, useQueueContacts } from './contacts/queries';
import { type Contact, type ContactStatus, STATUSES } from './contacts/shared';
import { contactStatusLabel, optionsOf } from '../format/statuses';
import { totalOf } from '../format/counts';

const PAGE = 25;
const CONTROL_NAMES = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/**
 * Contacts, a page at a time from the API, filtered by campaign (from the address too), status and phone number; add, edit,
 * queue the selected ones for a call, and import a CSV file with live progress.
 */
export default function Contacts() {
  const campaigns = useCampaignOptions();
  const [page, setPage] = useState(1);
  // A link can open the list filtered by a campaign (/contacts?campaign_id=3, as the campaign page does).
  const [params] = useSearchParams();
  const [campaignId, setCampaignId] = useState<string | null>(params.get('campaign_id'));
  const [status, setStatus] = useState<string | null>(null);
  const [phoneText, setPhoneText] = useState('');
  const [phone] = useDebouncedValue(phoneText.trim(), 400);
  const [selected, setSelected] = useState<Map<number, Contact>>(new Map());
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Contact | null>(null);
  const [importing, setImporting] = useState(false);

  const query = {
    skip: (page - 1) * PAGE, limit: PAGE,
    ...(campaignId ? { campaign_id: [Number(campaignId)] } : {}),
    ...(status ? { status: [status as ContactStatus] } : {}),
    ...(phone ? { phone_number: phone } : {}),
  };
  const list = useContacts(query);
  const rows = list.data?.data ?? [];
  const total = list.data?.count ?? 0;
  // An estimated total (count_exact false: many contacts match) is shown as "about N".
  const exact = list.data?.count_exact;

  const select = (contacts: Contact[], on: boolean) => setSelected((prev) => {
    const next = new Map(prev);
    for (const c of contacts) {
      if (on) next.set(c.id, c);
      else next.delete(c.id);
    }
    return next;
  });
  const filter = <T,>(set: (v: T) => void) => (v: T) => { set(v); setPage(1); };

  const queue = useQueueContacts();
  const queueSelected = () => queue.mutate([...selected.keys()], {
    onSuccess: (answer) => {
      const skipped = answer.not_queued.length;
      const parts = [answer.message];
      if (skipped) parts.push(`${skipped} not queued (in progress, do_not_disturb or paused)`);
      notifications.show({ color: answer.queued.length ? 'green' : 'yellow', title: 'Queue selected', message: parts.join('. '), autoClose: 6000 });
      setSelected(new Map());
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Could not queue the contacts', message: error.message }),
  });

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Title order={2}>Contacts</Title>
        <Group gap="xs" wrap="wrap">
          <Button variant="default" onClick={() => setImporting(true)}>Import CSV</Button>
          <Button onClick={() => setAdding(true)}>Add contact</Button>
        </Group>
      </Group>
      <Group align="end" wrap="wrap">
        <Select label="Campaign" placeholder="All campaigns" data={campaigns.options} value={campaignId} onChange={filter(setCampaignId)} searchable clearable miw={200} />
        <Select label="Status" placeholder="Any" data={optionsOf(STATUSES, contactStatusLabel)} value={status} onChange={filter(setStatus)} clearable miw={160} />
        <TextInput label="Find phone number" description="Exact number" value={phoneText} onChange={(e) => { setPhoneText(e.currentTarget.value); setPage(1); }} type="search" miw={180} />
      </Group>
      <Problem error={list.error ?? campaigns.error} />
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" aria-live="polite">
          {list.isPending ? 'Loading contacts…' : totalOf(total, exact, 'contact')}{selected.size ? ` · ${selected.size} selected` : ''}
        </Text>
        <Group gap="xs" wrap="wrap">
          {selected.size > 0 && <Button size="xs" variant="subtle" onClick={() => setSelected(new Map())}>Clear selection</Button>}
          <Button size="sm" disabled={selected.size === 0} loading={queue.isPending} onClick={queueSelected}>Queue selected</Button>
        </Group>
      </Group>
      <ContactsTable rows={rows} selected={selected} onSelect={select} onEdit={setEditing} />
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No contacts match.</Text>}
      {total > PAGE && (
        <nav aria-label="Contact pages">
          <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} siblings={1} boundaries={1} getControlProps={(control) => ({ 'aria-label': CONTROL_NAMES[control] })} />
        </nav>
      )}
      <Modal opened={adding} onClose={() => setAdding(false)} title="Add contact">
        <ContactForm key={adding ? 'open' : 'closed'} onDone={() => setAdding(false)} />
      </Modal>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing ? `Edit contact ${editing.phone_number}` : 'Edit contact'}>
        {editing && <ContactForm key={editing.id} contact={editing} onDone={() => setEditing(null)} />}
      </Modal>
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={importing} onClose={() => setImporting(false)} title="Import CSV" size="lg" keepMounted>
        <CsvImport />
      </Modal>
    </Stack>
  );
}
