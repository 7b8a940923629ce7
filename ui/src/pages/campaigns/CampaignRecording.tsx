import { useEffect, useState } from 'react';
import { Button, Fieldset, Group, Select, Stack, Text, Textarea } from '@mantine/core';
import { fieldError } from '../../api/client';
import type { Body } from '../../api/types';
import { Problem } from '../../components/Problem';
import type { Campaign } from './model';
import { useCampaignRecording, useSaveCampaignRecording } from './queries';

type Choice = Body<'update_campaign_recording'>;
const RULES: { value: Choice['rule']; label: string }[] = [
  { value: 'auto', label: 'By the contact’s state or country (default)' },
  { value: 'always', label: 'Always, from the start' },
  { value: 'after_disclosure', label: 'After telling the person the call is recorded' },
  { value: 'after_consent', label: 'Only after the person agrees (yes or 1)' },
];
const EXPLAIN: Record<Choice['rule'], string> = {
  auto: 'Told first in US states that need every party’s consent (CA, FL, IL, PA, WA…) and in the EU, UK, Canada and Australia; recorded from the start elsewhere.',
  always: 'Recorded from the moment the person answers.',
  after_disclosure: 'The agent’s first words say the call is recorded; recording starts then.',
  after_consent: 'The agent asks first; recording starts only on a yes or a 1, otherwise the call goes on unrecorded. Retell cannot do this: its calls then keep no recording.',
};

/**
 * How a campaign's calls are recorded (GET/PUT /campaigns/{id}/recording). Only the owner
 * changes it (the API's 403); a sub-user reads it.
 */
export function CampaignRecording({ campaign, isOwner }: { campaign: Campaign; isOwner: boolean }) {
  const settings = useCampaignRecording(campaign.id);
  const save = useSaveCampaignRecording(campaign.id);
  const [choice, setChoice] = useState<{ rule: Choice['rule']; disclosure: string; consent: string } | undefined>(undefined);
  useEffect(() => {
    if (settings.data && !choice) setChoice({ rule: settings.data.rule, disclosure: settings.data.disclosure ?? '', consent: settings.data.consent_prompt ?? '' });
  }, [settings.data, choice]);
  if (!choice) return settings.error ? <Problem error={settings.error} /> : null;
  const change = (next: Partial<typeof choice>) => { setChoice({ ...choice, ...next }); save.reset(); };
  const submit = () => save.mutate({ rule: choice.rule, disclosure: choice.disclosure.trim() || null, consent_prompt: choice.consent.trim() || null });
  const wordsError = fieldError(save.error, 'disclosure') ?? fieldError(save.error, 'consent_prompt');
  return (
    <form onSubmit={(e) => { e.preventDefault(); if (isOwner) submit(); }} aria-label="Recording settings">
      <Fieldset legend="Call recording">
        <Stack gap="sm">
          <Select
            label="Record calls" data={RULES} value={choice.rule} allowDeselect={false} readOnly={!isOwner}
            onChange={(v) => v && change({ rule: v as Choice['rule'] })} description={EXPLAIN[choice.rule]}
          />
          {(choice.rule === 'auto' || choice.rule === 'after_disclosure') && (
            <Textarea
              label="What the agent says first" placeholder="This call is recorded." autosize minRows={1} maxLength={500} readOnly={!isOwner}
              value={choice.disclosure} onChange={(e) => change({ disclosure: e.currentTarget.value })} error={fieldError(save.error, 'disclosure')}
            />
          )}
          {choice.rule === 'after_consent' && (
            <Textarea
              label="The question the agent asks first" placeholder="Before we go on: may we record this call? Say yes or press 1 to agree; otherwise we continue without recording."
              autosize minRows={2} maxLength={500} readOnly={!isOwner}
              value={choice.consent} onChange={(e) => change({ consent: e.currentTarget.value })} error={fieldError(save.error, 'consent_prompt')}
            />
          )}
          {save.error && !wordsError && <Problem error={save.error} />}
          {isOwner ? (
            <Group justify="flex-end">
              {save.isSuccess && <Text size="sm" role="status">Recording saved.</Text>}
              <Button type="submit" loading={save.isPending}>Save recording</Button>
            </Group>
          ) : <Text size="sm">Only the account owner changes how calls are recorded.</Text>}
        </Stack>
      </Fieldset>
    </form>
  );
}
