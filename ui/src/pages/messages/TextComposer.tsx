import { useState } from 'react';
import { Button, Group, List, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Problem } from '../../components/Problem';
import { countSegments } from '../../format/segments';
import { useFormat } from '../../format/useFormat';
import { useContactJobs, useDraftText, useSendText } from './queries';

const MAX = 1600;

/**
 * A text to the contact by hand: the live cost of what is typed (GSM-7 or UCS-2, segments), a
 * draft written by the service (the AI, else the campaign's template) to start from, and Send,
 * which queues it; the texts still waiting are listed with why they wait.
 */
export function TextComposer({ contactId, disabledReason }: { contactId: number; disabledReason?: string | undefined }) {
  const f = useFormat();
  const [text, setText] = useState('');
  const draft = useDraftText();
  const send = useSendText(contactId);
  const jobs = useContactJobs(contactId);
  const cost = countSegments(text);
  const waiting = jobs.data?.data ?? [];
  const onDraft = () => draft.mutate({ contact_id: contactId }, { onSuccess: (d) => setText(d.message) });
  const onSend = () => send.mutate(text, {
    onSuccess: () => {
      setText('');
      notifications.show({ color: 'green', title: 'Text queued', message: 'It is sent as soon as the quiet hours and caps allow.' });
    },
  });
  return (
    <Stack component="section" aria-labelledby="contact-composer" gap="xs">
      <Title order={3} id="contact-composer">Send a text</Title>
      {disabledReason && <Text size="sm" c="red.9">{disabledReason}</Text>}
      <Textarea
        label="Text message" autosize minRows={3} maxRows={10} maxLength={MAX} value={text} onChange={(e) => setText(e.currentTarget.value)}
        description={`${text.length} of ${MAX} characters · ${cost.encoding} · ${cost.segments} segment${cost.segments === 1 ? '' : 's'}`}
        disabled={!!disabledReason}
      />
      {cost.encoding === 'UCS-2' && text.length > 0 && <Text size="xs" c="dimmed">A character outside the GSM alphabet (an emoji, some accents) makes every segment hold 70 characters instead of 160.</Text>}
      <Problem error={draft.error ?? send.error} />
      <Group gap="xs">
        <Button variant="default" onClick={onDraft} loading={draft.isPending} disabled={!!disabledReason}>Draft with AI</Button>
        <Button onClick={onSend} loading={send.isPending} disabled={!!disabledReason || text.trim() === ''}>Send</Button>
        {draft.data && <Text size="xs" c="dimmed">Draft by {draft.data.by === 'llm' ? 'the AI' : 'the template'}</Text>}
      </Group>
      {waiting.length > 0 && (
        <div>
          <Text size="sm" fw={600}>Waiting to be sent</Text>
          <List size="sm" aria-label="Texts waiting to be sent">
            {waiting.map((j) => (
              <List.Item key={j.id}>
                {f.messagePurpose(j.purpose)} · {f.messageJobStatus(j.status)} · due {f.time(j.due_at)}{j.reason ? ` · ${f.sentence(j.reason)}` : ''}
              </List.Item>
            ))}
          </List>
        </div>
      )}
    </Stack>
  );
}
