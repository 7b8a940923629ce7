import { Anchor, Badge, Breadcrumbs, Card, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { idFromPath, isNotFound, NotFound } from '../components/NotFound';
import { Problem } from '../components/Problem';
import { useFormat } from '../format/useFormat';
import { ContactAttempts } from './contacts/ContactAttempts';
import { ContactTimeline } from './messages/ContactTimeline';
import { TextComposer } from './messages/TextComposer';
import { useContact } from './contacts/queries';
import { displayNameOf, STATUS_COLOR } from './contacts/shared';

/** /contacts/:id: one contact, where it stands, its calls and texts in one timeline, a text by hand, and every call made to it (its attempts). */
export default function Contact() {
  const param = useParams().id;
  const id = idFromPath(param);
  const contact = useContact(id ?? 0, id !== null);
  const f = useFormat();
  if (id === null || isNotFound(contact.error)) return <NotFound what="contact" value={param} back={{ to: '/contacts', label: 'All contacts' }} />;
  const c = contact.data;
  const title = c ? displayNameOf(c) || c.phone_number : `Contact ${id}`;
  return (
    <Stack>
      <Breadcrumbs aria-label="Breadcrumb">
        <Anchor component={Link} to="/contacts">Contacts</Anchor>
        <Text>{title}</Text>
      </Breadcrumbs>
      <Title order={2}>{title}</Title>
      <Problem error={contact.error} />
      {contact.isPending && <Loader aria-label="Loading the contact" />}
      {c && (
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Figure label="Phone number" value={c.phone_number} />
          <Figure label="Status" value={<Badge variant="light" color={STATUS_COLOR[c.status] ?? 'gray'}>{f.contactStatus(c.status)}</Badge>} />
          <Figure label="Campaign" value={<Anchor component={Link} to={`/campaigns/${c.campaign_id}`}>{c.campaign_title ?? `Campaign ${c.campaign_id}`}</Anchor>} />
          <Figure label="Attempts" value={String(c.calls_attempts ?? 0)} />
        </SimpleGrid>
      )}
      {c?.next_action_reason && <Text size="sm">Next: {c.next_action_time ? `${f.time(c.next_action_time)} · ` : ''}{f.sentence(c.next_action_reason)}</Text>}
      {id !== null && <ContactTimeline contactId={id} />}
      {id !== null && c && <TextComposer contactId={id} disabledReason={c.status === 'do_not_disturb' ? 'This contact is do not disturb: no text can be sent to it.' : undefined} />}
      {id !== null && <ContactAttempts contactId={id} />}
    </Stack>
  );
}

function Figure({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">{label}</Text>
      <Text fw={600} component="div">{value}</Text>
    </Card>
  );
}
