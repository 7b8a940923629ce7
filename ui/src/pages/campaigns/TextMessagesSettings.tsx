import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Fieldset, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ApiProblem, fieldError } from '../../api/client';
import type { Body } from '../../api/types';
import { Problem } from '../../components/Problem';
import { optionsOf } from '../../format/statuses';
import { useFormat } from '../../format/useFormat';
import { sampleContactOf, useCampaignMessaging, useDraftText, useSaveCampaignMessaging, type MessagingSettings } from '../messages/queries';
import type { Campaign } from './model';

type Values = Required<Body<'update_campaign_messaging'>>;
const FOLLOW_UP = ['unavailable', 'busy_or_rejected', 'rejected', 'voicemail', 'silence', 'failed', 'terminated', 'finished'];
/** What a sub-user may not change (the API's 403 names them); shown disabled to a sub-user. */
const OWNER_ONLY = new Set(['channel', 'whatsapp_content_sid', 'messaging_service_sid', 'max_per_contact', 'max_ai_replies_per_day', 'prompt']);

const valuesOf = (s: MessagingSettings): Values => ({
  channel: s.channel, follow_up_statuses: s.follow_up_statuses, confirm_interested: s.confirm_interested, delay_minutes: s.delay_minutes,
  max_per_contact: s.max_per_contact, prompt: s.prompt ?? '', template: s.template ?? '', whatsapp_content_sid: s.whatsapp_content_sid ?? '',
  messaging_service_sid: s.messaging_service_sid ?? '', reply_stops_calls: s.reply_stops_calls, accept_inbound: s.accept_inbound,
  ai_replies: s.ai_replies, max_ai_replies_per_day: s.max_ai_replies_per_day,
});
/** Empty text boxes are "none" to the API (null), never an empty SID. */
const bodyOf = (v: Values): Body<'update_campaign_messaging'> => ({
  ...v, prompt: v.prompt || null, template: v.template || null, whatsapp_content_sid: v.whatsapp_content_sid || null, messaging_service_sid: v.messaging_service_sid || null,
});

/**
 * A campaign's text messages (GET/PUT /campaigns/{id}/messaging, their own endpoint): when a text
 * follows a call, how it is written (prompt, template) and sent, and a preview of the text a
 * contact of the campaign would get with the settings as they are in the form, saved or not.
 */
export function TextMessagesSettings({ campaign, isOwner }: { campaign: Campaign; isOwner: boolean }) {
  const f = useFormat();
  const settings = useCampaignMessaging(campaign.id);
  const save = useSaveCampaignMessaging(campaign.id);
  const draft = useDraftText();
  const [previewProblem, setPreviewProblem] = useState<string | null>(null);
  // An edit clears the last save's refusal: its message was about the value as it was.
  const form = useForm<Values>({ initialValues: valuesOf({ ...EMPTY, campaign_id: campaign.id }), onValuesChange: () => { if (save.isError) save.reset(); } });
  useEffect(() => {
    if (settings.data && !form.isDirty()) {
      form.setInitialValues(valuesOf(settings.data));
      form.setValues(valuesOf(settings.data));
    }
  }, [settings.data]); // eslint-disable-line react-hooks/exhaustive-deps
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const err = (field: string) => fieldError(problem, field);
  const locked = (field: string) => !isOwner && OWNER_ONLY.has(field);
  const ownerNote = (field: string) => (locked(field) ? 'Only the account owner changes this' : undefined);
  const submit = (v: Values) => save.mutate(bodyOf(v), {
    onSuccess: (saved) => {
      form.setInitialValues(valuesOf(saved));
      form.setValues(valuesOf(saved));
      notifications.show({ color: 'green', title: 'Text settings saved', message: campaign.title });
    },
  });
  const preview = async () => {
    setPreviewProblem(null);
    const contactId = await sampleContactOf(campaign.id).catch(() => null);
    if (contactId === null) return setPreviewProblem('Add a contact to this campaign to preview its texts.');
    const v = form.getValues();
    draft.mutate({ contact_id: contactId, purpose: 'follow_up', prompt: v.prompt || null, template: v.template || null });
  };
  return (
    <form onSubmit={form.onSubmit(submit)} aria-label="Text message settings">
      <Fieldset legend="Text messages">
        <Stack gap="sm">
          {!campaign.is_auto_ai_message && (
            <Alert color="blue" title="Automatic AI messages is off">
              No follow-up or confirmation is texted after this campaign&apos;s calls until &quot;Automatic AI messages&quot; is on in the campaign settings.
              Texts by hand and answers to the person&apos;s texts follow these settings either way.
            </Alert>
          )}
          <Problem error={settings.error} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select label="Channel" data={[{ value: 'sms', label: 'SMS' }, { value: 'whatsapp', label: 'WhatsApp' }]} allowDeselect={false}
              {...form.getInputProps('channel')} disabled={locked('channel')} description={ownerNote('channel')} error={err('channel')} />
            <MultiSelect label="Text after calls that end as" data={optionsOf(FOLLOW_UP, f.callStatus)} placeholder="No follow-up texts"
              {...form.getInputProps('follow_up_statuses')} error={err('follow_up_statuses')} />
            <NumberInput label="Minutes after the call" description="0 to 10080 (a week)" min={0} max={10080} allowDecimal={false} {...form.getInputProps('delay_minutes')} error={err('delay_minutes')} />
            <NumberInput label="Texts per contact" description={ownerNote('max_per_contact') ?? 'Replies to the person not counted; 0: none'} min={0} max={50} allowDecimal={false}
              {...form.getInputProps('max_per_contact')} disabled={locked('max_per_contact')} error={err('max_per_contact')} />
          </SimpleGrid>
          <Checkbox label="Text a confirmation after a call whose outcome is Interested" {...form.getInputProps('confirm_interested', { type: 'checkbox' })} />
          <Textarea label="Text prompt" description={ownerNote('prompt') ?? 'Instructions for the AI that writes the texts; empty: built in'} autosize minRows={2} maxRows={10}
            {...form.getInputProps('prompt')} disabled={locked('prompt')} error={err('prompt')} />
          <Textarea label="Text template" description="Used without an AI, and when its answer fails the checks. Placeholders: {{contact.name}}, {{call.status}}, {{campaign.title}}; empty: built in"
            autosize minRows={2} maxRows={10} {...form.getInputProps('template')} error={err('template')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="WhatsApp template (Content SID)" placeholder="HX…" description={ownerNote('whatsapp_content_sid') ?? 'Sent outside the 24-hour window'}
              {...form.getInputProps('whatsapp_content_sid')} disabled={locked('whatsapp_content_sid')} error={err('whatsapp_content_sid')} />
            <TextInput label="Messaging Service SID" placeholder="MG…" description={ownerNote('messaging_service_sid') ?? 'Sends instead of the campaign phone'}
              {...form.getInputProps('messaging_service_sid')} disabled={locked('messaging_service_sid')} error={err('messaging_service_sid')} />
          </SimpleGrid>
          <Checkbox label="A reply stops the contact's call retries" {...form.getInputProps('reply_stops_calls', { type: 'checkbox' })} />
          <Checkbox label="Texts from unknown numbers create contacts" {...form.getInputProps('accept_inbound', { type: 'checkbox' })} />
          <Checkbox label="The AI answers texts" {...form.getInputProps('ai_replies', { type: 'checkbox' })} />
          <NumberInput label="AI answers per contact per day" description={ownerNote('max_ai_replies_per_day') ?? '0 to 1000'} min={0} max={1000} allowDecimal={false} maw={280}
            {...form.getInputProps('max_ai_replies_per_day')} disabled={locked('max_ai_replies_per_day')} error={err('max_ai_replies_per_day')} />
          {save.error && !(problem && problem.fields.length > 0) && <Problem error={save.error} />}
          {draft.error ? <Problem error={draft.error} /> : previewProblem && <Text size="sm" c="red.9" role="alert">{previewProblem}</Text>}
          {draft.data && (
            <Card withBorder padding="sm" aria-label="Preview">
              <Text size="xs" c="dimmed">Preview of a follow-up, by {draft.data.by === 'llm' ? 'the AI' : 'the template'} · {draft.data.encoding} · {draft.data.segments} segment{draft.data.segments === 1 ? '' : 's'}</Text>
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>{draft.data.message}</Text>
            </Card>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => void preview()} loading={draft.isPending}>Preview a text</Button>
            <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>Discard changes</Button>
            <Button type="submit" loading={save.isPending}>Save text settings</Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}

const EMPTY: MessagingSettings = {
  campaign_id: 0, channel: 'sms', follow_up_statuses: [], confirm_interested: false, delay_minutes: 5, max_per_contact: 2, prompt: null, template: null,
  whatsapp_content_sid: null, messaging_service_sid: null, reply_stops_calls: true, accept_inbound: true, ai_replies: true, max_ai_replies_per_day: 10, updated_at: null,
};
