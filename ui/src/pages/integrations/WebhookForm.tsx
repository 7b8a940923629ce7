import { Button, Group, MultiSelect, PasswordInput, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, ApiProblem, fieldError, must } from '../../api/client';
import { Problem } from '../../components/Problem';
import { CampaignPicker } from '../analytics/CampaignPicker';
import type { paths } from '../../api/schema';
import type { WebhookInput } from './model';

type Created = paths['/api/v1/integrations/webhooks/']['post']['responses'][200]['content']['application/json'];

const AUTH = [
  { value: 'none', label: 'None' },
  { value: 'basic', label: 'Basic (login and password)' },
  { value: 'bearer', label: 'Bearer token' },
  { value: 'api_key', label: 'API key header' },
];
const STATUSES = ['finished', 'failed', 'busy_or_rejected', 'invalid number', 'rejected', 'terminated', 'unavailable', 'voicemail'];
const FIELDS = ['name', 'url', 'campaign_ids', 'request_schema', 'only_interested', 'auth_type', 'basic_login', 'basic_password', 'bearer_token', 'api_key_header', 'api_key_value', 'http_method', 'call_statuses', 'is_active'];

const SCHEMA_HELP =
  'One of four forms: lines "field - description"; a JSON object of field → description; an example JSON object (types inferred); or a JSON Schema. ' +
  'Field names: letters, digits, underscore.';

/** A new post-call webhook; the API's 422 messages appear under the fields they concern. */
export function WebhookForm({ onCreated }: { onCreated: (created: Created) => void }) {
  const client = useQueryClient();
  const form = useForm({
    initialValues: {
      name: '', url: '', campaign_ids: [] as string[], request_schema: '', only_interested: true, auth_type: 'none' as WebhookInput['auth_type'] & string,
      basic_login: '', basic_password: '', bearer_token: '', api_key_header: '', api_key_value: '', http_method: 'POST' as 'POST' | 'PUT',
      call_statuses: [] as string[], is_active: true,
    },
  });
  const create = useMutation({
    mutationFn: (v: typeof form.values) => {
      const body: WebhookInput = {
        name: v.name || null, url: v.url, campaign_ids: v.campaign_ids.map(Number), request_schema: v.request_schema,
        only_interested: v.only_interested, auth_type: v.auth_type, http_method: v.http_method, is_active: v.is_active,
        call_statuses: v.call_statuses as WebhookInput['call_statuses'],
        ...(v.auth_type === 'basic' ? { basic_login: v.basic_login, basic_password: v.basic_password } : {}),
        ...(v.auth_type === 'bearer' ? { bearer_token: v.bearer_token } : {}),
        ...(v.auth_type === 'api_key' ? { api_key_value: v.api_key_value, ...(v.api_key_header ? { api_key_header: v.api_key_header } : {}) } : {}),
      };
      return must(api.POST('/api/v1/integrations/webhooks/', { body }));
    },
    onSuccess: (created) => {
      void client.invalidateQueries({ queryKey: ['webhooks'] });
      onCreated(created);
    },
  });
  const err = (field: string) => fieldError(create.error, field);
  const problem = create.error instanceof ApiProblem ? create.error : null;
  const unplaced = create.error && (!problem || !problem.fields.some((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1]))));
  const auth = form.values.auth_type;
  return (
    <form onSubmit={form.onSubmit((v) => create.mutate(v))}>
      <Stack>
        <TextInput label="Name" {...form.getInputProps('name')} error={err('name')} />
        <TextInput label="URL" required placeholder="https://example.com/hooks/calls" description="May contain placeholders such as {{call.id}}" {...form.getInputProps('url')} error={err('url')} />
        <CampaignPicker label="Campaigns" required includeArchived value={form.values.campaign_ids} onChange={(v) => form.setFieldValue('campaign_ids', v)} error={err('campaign_ids')} />
        <Textarea label="Request schema" required autosize minRows={4} description={SCHEMA_HELP} placeholder={'name - the caller\'s name\ninterested - did the caller want a follow-up'}
          {...form.getInputProps('request_schema')} error={err('request_schema')} styles={{ input: { fontFamily: 'monospace' } }} />
        <Switch label="Only interested calls" description="Send only calls whose outcome is interested" {...form.getInputProps('only_interested', { type: 'checkbox' })} error={err('only_interested')} />
        <MultiSelect label="Call statuses" description="Empty: any finished call" data={STATUSES} {...form.getInputProps('call_statuses')} error={err('call_statuses')} clearable />
        <Group grow align="start">
          <Select label="Auth type" data={AUTH} allowDeselect={false} {...form.getInputProps('auth_type')} error={err('auth_type')} />
          <Select label="HTTP method" data={['POST', 'PUT']} allowDeselect={false} {...form.getInputProps('http_method')} error={err('http_method')} />
        </Group>
        {auth === 'basic' && (
          <Group grow align="start">
            <TextInput label="Login" required {...form.getInputProps('basic_login')} error={err('basic_login')} />
            <PasswordInput label="Password" required {...form.getInputProps('basic_password')} error={err('basic_password')} />
          </Group>
        )}
        {auth === 'bearer' && <PasswordInput label="Bearer token" required {...form.getInputProps('bearer_token')} error={err('bearer_token')} />}
        {auth === 'api_key' && (
          <Group grow align="start">
            <TextInput label="API key header" placeholder="the service's default" {...form.getInputProps('api_key_header')} error={err('api_key_header')} />
            <PasswordInput label="API key value" required {...form.getInputProps('api_key_value')} error={err('api_key_value')} />
          </Group>
        )}
        <Switch label="Active" {...form.getInputProps('is_active', { type: 'checkbox' })} />
        {unplaced && <Problem error={create.error} />}
        <Button type="submit" loading={create.isPending}>Create webhook</Button>
      </Stack>
    </form>
  );
}
