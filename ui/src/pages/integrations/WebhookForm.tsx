import { useEffect, useRef } from 'react';
import { Button, Fieldset, Group, MultiSelect, PasswordInput, Select, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiProblem, fieldError } from '../../api/client';
import type { Answer } from '../../api/types';
import { Problem } from '../../components/Problem';
import { CampaignPicker } from '../analytics/CampaignPicker';
import type { Webhook } from './model';
import { InstructionsField, PlaceholderHelp } from './InstructionsField';
import { useChangeWebhook, useCreateWebhook } from './queries';
import { SchemaField } from './SchemaField';
import { BLANK, createBody, FIELDS, updateBody, valuesOf, type FormValues } from './webhookValues';

type Created = Answer<'create_webhook_integration'>;

const AUTH = [
  { value: 'none', label: 'None' },
  { value: 'basic', label: 'Basic (login and password)' },
  { value: 'bearer', label: 'Bearer token' },
  { value: 'api_key', label: 'API key header' },
];
const STATUSES = ['finished', 'failed', 'busy_or_rejected', 'invalid number', 'rejected', 'terminated', 'unavailable', 'voicemail'];

type Props =
  | { webhook?: undefined; onCreated: (created: Created) => void; onSaved?: undefined }
  | { webhook: Webhook; onSaved: (saved: Webhook) => void; onCreated?: undefined };

/**
 * A post-call webhook, new (POST) or an existing one (PUT, prefilled). Secrets are write-only:
 * when editing they start blank, and blank keeps the stored one. The API's 422 messages appear
 * under the fields they concern.
 */
export function WebhookForm({ webhook, onCreated, onSaved }: Props) {
  const initial = webhook ? valuesOf(webhook) : BLANK;
  const form = useForm<FormValues>({ initialValues: initial });
  const create = useCreateWebhook();
  const change = useChangeWebhook();
  // The form is one or the other for its whole life (a new webhook's form is never an edit).
  const save = webhook ? change : create;
  const submit = (v: FormValues) => {
    if (webhook) change.mutate({ id: webhook.id, body: updateBody(v, initial) }, { onSuccess: onSaved });
    else create.mutate(createBody(v), { onSuccess: onCreated });
  };
  const err = (field: string) => fieldError(save.error, field);
  // The refused field may be far above the button in a long dialog: it gets the focus (and so
  // comes into view, its message read with it), so the answer is seen at once.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (save.error) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid="true"]')?.focus();
  }, [save.error]);
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const unplaced = save.error && (!problem || !problem.fields.some((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1]))));
  const auth = form.values.auth_type;
  // Editing: a stored secret is kept when its input is left blank; its mask says one is stored.
  const secret = (field: 'basic_password' | 'bearer_token' | 'api_key_value', label: string) => {
    const stored = webhook?.[field];
    return (
      <PasswordInput label={label} required={!stored} description={stored ? `Stored (${stored}); leave blank to keep it` : undefined}
        autoComplete="new-password" {...form.getInputProps(field)} error={err(field)} />
    );
  };
  return (
    <form ref={formRef} onSubmit={form.onSubmit(submit)}>
      <Stack>
        <TextInput label="Name" {...form.getInputProps('name')} error={err('name')} />
        <TextInput label="URL" required placeholder="https://example.com/hooks/calls" description="May contain placeholders such as {{call.id}} (listed below)" {...form.getInputProps('url')} error={err('url')} />
        <CampaignPicker label="Campaigns" required includeArchived value={form.values.campaign_ids} onChange={(v) => form.setFieldValue('campaign_ids', v)} error={err('campaign_ids')} />
        <SchemaField value={form.values.request_schema} onChange={(v) => form.setFieldValue('request_schema', v)} error={err('request_schema')} editing={Boolean(webhook)} />
        <InstructionsField value={form.values.instructions} onChange={(v) => form.setFieldValue('instructions', v)} error={save.error} />
        <PlaceholderHelp />
        <Fieldset legend="Which calls are sent" variant="unstyled">
          <Stack gap="sm">
            <Switch label="Only interested calls" description="Send only calls whose outcome is interested" {...form.getInputProps('only_interested', { type: 'checkbox' })} error={err('only_interested')} />
            <MultiSelect label="Call statuses" description="Empty: any finished call" data={STATUSES} {...form.getInputProps('call_statuses')} error={err('call_statuses')} clearable />
            <Switch label="Also send inbound texts" description="Each text a contact sends to these campaigns, as the event text.received (a fixed payload, no AI)"
              {...form.getInputProps('send_inbound_texts', { type: 'checkbox' })} error={err('send_inbound_texts')} />
            <Switch label="Also send campaign pauses" description="When one of these campaigns pauses itself because too many calls failed, as the event campaign.paused"
              {...form.getInputProps('send_campaign_events', { type: 'checkbox' })} error={err('send_campaign_events')} />
          </Stack>
        </Fieldset>
        <Fieldset legend="Request" variant="unstyled">
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <Select label="HTTP method" data={['POST', 'PUT']} allowDeselect={false} {...form.getInputProps('http_method')} error={err('http_method')} />
              <TextInput label="Timeout (s)" inputMode="numeric" placeholder="30" description="1 to 120 seconds" {...form.getInputProps('timeout')} error={err('timeout')} />
            </SimpleGrid>
            <Switch label="Send the fields as URL query parameters" description="Off: a JSON body" {...form.getInputProps('save_data_use_url_params', { type: 'checkbox' })} error={err('save_data_use_url_params')} />
            <TextInput label="Allowed hosts" placeholder="the URL's host" description="Comma-separated; each allows itself and its subdomains. Needed when the URL's host is a placeholder."
              {...form.getInputProps('allowed_hosts')} error={err('allowed_hosts')} />
          </Stack>
        </Fieldset>
        <Fieldset legend="Receiver authentication" variant="unstyled">
          <Stack gap="sm">
            <Select label="Auth type" data={AUTH} allowDeselect={false} {...form.getInputProps('auth_type')} error={err('auth_type')} />
            {auth === 'basic' && (
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <TextInput label="Login" required {...form.getInputProps('basic_login')} error={err('basic_login')} />
                {secret('basic_password', 'Password')}
              </SimpleGrid>
            )}
            {auth === 'bearer' && secret('bearer_token', 'Bearer token')}
            {auth === 'api_key' && (
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <TextInput label="API key header" placeholder="X-API-KEY" {...form.getInputProps('api_key_header')} error={err('api_key_header')} />
                {secret('api_key_value', 'API key value')}
              </SimpleGrid>
            )}
          </Stack>
        </Fieldset>
        <Switch label="Active" description="An inactive webhook sends nothing" {...form.getInputProps('is_active', { type: 'checkbox' })} error={err('is_active')} />
        {unplaced && <Problem error={save.error} />}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>{webhook ? 'Save webhook' : 'Create webhook'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
