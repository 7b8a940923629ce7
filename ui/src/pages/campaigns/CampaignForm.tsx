import { useEffect } from 'react';
import { Button, Checkbox, Fieldset, Group, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router-dom';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useAssistantOptions } from '../assistants/queries';
import { type Campaign, type CampaignValues, createBody, nestedErrors, updateBody, valuesOf } from './model';
import { useSaveCampaign } from './queries';
import { RetryIntervals } from './RetryIntervals';
import { ScheduleEditor } from './ScheduleEditor';
import { UsageLimit } from './UsageLimit';
import { CampaignSipTrunk } from '../sip-trunks/CampaignSipTrunk';
import { SipRouteTest } from '../sip-trunks/SipRouteTest';

// Body fields this form shows errors for next to their input; any other problem shows above the button.
const SHOWN = new Set(['title', 'description', 'campaign_type', 'assistant_id', 'campaign_phone', 'campaign_sip', 'max_call_attempts',
  'concurrent_call_limit', 'call_interval', 'call_allowed_from_time', 'call_allowed_to_time', 'work_schedule', 'auto_calls',
  'is_auto_ai_message', 'limit_start', 'limit_end', 'limit_value', 'limit_unit', 'campaign_data']);
const coveredByFields = (p: ApiProblem | null) => !!p && p.fields.length > 0 && p.fields.every((f) => f.loc[0] === 'body' && SHOWN.has(String(f.loc[1])));

/**
 * Every field of a campaign: creates one (no `campaign`, POST) or saves the changed fields of one (PUT).
 * A 422 shows under its field; the schedule's nested errors under the schedule; 403/409 above the button.
 */
export function CampaignForm({ campaign }: { campaign?: Campaign }) {
  const navigate = useNavigate();
  const assistants = useAssistantOptions();
  const form = useForm<CampaignValues>({ initialValues: valuesOf(campaign) });
  const restart = (c?: Campaign) => {
    form.setInitialValues(valuesOf(c));
    form.setValues(valuesOf(c));
  };
  // A campaign changed elsewhere (paused, a prompt approved) becomes the starting point, unless the person
  // is editing: their unsaved changes are not wiped.
  useEffect(() => {
    if (!form.isDirty()) restart(campaign);
  }, [campaign]); // eslint-disable-line react-hooks/exhaustive-deps
  const save = useSaveCampaign();
  const submit = (v: CampaignValues) => save.mutate(campaign ? { id: campaign.id, body: updateBody(v, campaign) } : { body: createBody(v) }, {
    onSuccess: (saved) => {
      restart(saved);
      notifications.show({ color: 'green', title: campaign ? 'Campaign saved' : 'Campaign created', message: saved.title });
      if (!campaign) void navigate(`/campaigns/${saved.id}`);
    },
  });
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const err = (field: string) => fieldError(problem, field);
  const promptError = nestedErrors(problem, 'campaign_data').join('; ') || undefined;
  return (
    <form onSubmit={form.onSubmit(submit)} aria-label="Campaign settings">
      <Stack>
        <Fieldset legend="Campaign">
          <Stack gap="sm">
            <TextInput label="Title" required {...form.getInputProps('title')} error={err('title')} />
            <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} error={err('description')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select label="Type" data={['Outbound', 'Inbound']} allowDeselect={false} {...form.getInputProps('campaign_type')} error={err('campaign_type')} />
              <Select
                label="Assistant" placeholder="Service default (VOICE_PROVIDER)" data={assistants.options} clearable searchable
                {...form.getInputProps('assistant_id')} error={err('assistant_id') ?? (assistants.error ? assistants.error.message : undefined)}
              />
              <TextInput label="Campaign phone" placeholder="+14155550100" {...form.getInputProps('campaign_phone')} error={err('campaign_phone')} />
              <TextInput label="Campaign SIP" placeholder="sip:trunk.example.com;transport=tls" {...form.getInputProps('campaign_sip')} error={err('campaign_sip')} />
              <CampaignSipTrunk campaignId={campaign?.id ?? null} />
            </SimpleGrid>
            {campaign && <SipRouteTest campaignId={campaign.id} campaignSip={campaign.campaign_sip ?? null} campaignType={campaign.campaign_type ?? 'Outbound'} />}
          </Stack>
        </Fieldset>
        <Fieldset legend="Calling">
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberInput label="Maximum call attempts" description="Calls to one contact at most, 1 to 100; empty: 1" min={1} max={100} allowDecimal={false} {...form.getInputProps('max_call_attempts')} error={err('max_call_attempts')} />
              <NumberInput label="Concurrent call limit" description="Calls at once; 0 or empty: no campaign limit" min={0} max={10000} allowDecimal={false} {...form.getInputProps('concurrent_call_limit')} error={err('concurrent_call_limit')} />
              <TextInput label="Calling from" description="Contact's local time; empty: start of day" type="time" {...form.getInputProps('call_allowed_from_time')} error={err('call_allowed_from_time')} />
              <TextInput label="Calling until" description="Earlier than from: crosses midnight" type="time" {...form.getInputProps('call_allowed_to_time')} error={err('call_allowed_to_time')} />
            </SimpleGrid>
            <Checkbox label="Queue new contacts for calling as soon as they are added" {...form.getInputProps('auto_calls', { type: 'checkbox' })} error={err('auto_calls')} />
            <Checkbox label="Automatic AI messages" {...form.getInputProps('is_auto_ai_message', { type: 'checkbox' })} error={err('is_auto_ai_message')} />
          </Stack>
        </Fieldset>
        <RetryIntervals form={form} error={nestedErrors(problem, 'call_interval').join('; ') || undefined} />
        <ScheduleEditor form={form} errors={nestedErrors(problem, 'work_schedule')} />
        <UsageLimit form={form} error={problem} campaign={campaign} />
        <Textarea
          label="Prompt" description={campaign ? 'A sub-user\'s change waits for the owner\'s approval (see Prompt history)' : 'The assistant\'s instructions'}
          autosize minRows={4} maxRows={16} {...form.getInputProps('prompt')} error={promptError}
        />
        {save.error && !coveredByFields(problem) && <Problem error={save.error} />}
        <Group justify="flex-end">
          {campaign && <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>Discard changes</Button>}
          <Button type="submit" loading={save.isPending}>{campaign ? 'Save campaign' : 'Create campaign'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
