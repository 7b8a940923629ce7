import { useEffect } from 'react';
import { Button, Checkbox, Fieldset, Group, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ApiProblem, fieldError } from '../../api/client';
import type { Answer } from '../../api/types';
import { Problem } from '../../components/Problem';
import type { Campaign } from './model';
import { windowPhrase } from './PausedByBreaker';
import { useCampaignProtection, useSaveCampaignProtection } from './queries';

type Settings = Answer<'read_campaign_protection'>;
/** The form's values; the threshold as a percentage, as people say it (the API takes a fraction). */
interface Values { breaker_enabled: boolean; percent: number | string; window_seconds: number | string; min_attempts: number | string }

const valuesOf = (s: Pick<Settings, 'breaker_enabled' | 'failure_rate_threshold' | 'window_seconds' | 'min_attempts'>): Values => ({
  breaker_enabled: s.breaker_enabled, percent: Math.round(s.failure_rate_threshold * 1000) / 10, window_seconds: s.window_seconds, min_attempts: s.min_attempts,
});
const DEFAULTS = valuesOf({ breaker_enabled: true, failure_rate_threshold: 0.5, window_seconds: 120, min_attempts: 5 });

/**
 * The circuit breaker of a campaign (GET/PUT /campaigns/{id}/protection, their own endpoint):
 * the campaign pauses itself when too many of its calls fail. A sub-user tunes it but does not
 * switch it off (the API's 403): the switch is shown disabled to a sub-user.
 */
export function ProtectionSettings({ campaign, isOwner }: { campaign: Campaign; isOwner: boolean }) {
  const settings = useCampaignProtection(campaign.id);
  const save = useSaveCampaignProtection(campaign.id);
  const form = useForm<Values>({ initialValues: DEFAULTS, onValuesChange: () => { if (save.isError) save.reset(); } });
  useEffect(() => {
    if (settings.data && !form.isDirty()) {
      form.setInitialValues(valuesOf(settings.data));
      form.setValues(valuesOf(settings.data));
    }
  }, [settings.data]); // eslint-disable-line react-hooks/exhaustive-deps
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const submit = (v: Values) => save.mutate({
    breaker_enabled: v.breaker_enabled, failure_rate_threshold: Number(v.percent) / 100, window_seconds: Number(v.window_seconds), min_attempts: Number(v.min_attempts),
  }, {
    onSuccess: (saved) => {
      form.setInitialValues(valuesOf(saved));
      form.setValues(valuesOf(saved));
      notifications.show({ color: 'green', title: 'Protection saved', message: campaign.title });
    },
  });
  const v = form.getValues();
  return (
    <form onSubmit={form.onSubmit(submit)} aria-label="Protection settings">
      <Fieldset legend="Protection">
        <Stack gap="sm">
          <Problem error={settings.error} />
          <Checkbox label="Pause the campaign by itself when too many calls fail" {...form.getInputProps('breaker_enabled', { type: 'checkbox' })}
            disabled={!isOwner} description={isOwner ? undefined : 'Only the account owner changes this'} error={fieldError(problem, 'breaker_enabled')} />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput label="Failed calls (%)" description="5 to 100" min={5} max={100} decimalScale={1} suffix="%"
              {...form.getInputProps('percent')} error={fieldError(problem, 'failure_rate_threshold')} />
            <NumberInput label="Window (seconds)" description="30 to 86400" min={30} max={86400} allowDecimal={false}
              {...form.getInputProps('window_seconds')} error={fieldError(problem, 'window_seconds')} />
            <NumberInput label="Minimum calls" description="1 to 1000" min={1} max={1000} allowDecimal={false}
              {...form.getInputProps('min_attempts')} error={fieldError(problem, 'min_attempts')} />
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            {v.breaker_enabled
              ? `Pauses when at least ${v.percent}% of the calls that ended in the last ${windowPhrase(Number(v.window_seconds) || 0)} failed, once ${v.min_attempts} calls have ended. `
              : 'The campaign never pauses by itself. '}
            Failed, invalid number, rejected by the carrier and refused by the voice vendor count as failures; busy, no answer and voicemail do not.
          </Text>
          {save.error && !(problem && problem.fields.length > 0) && <Problem error={save.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>Discard changes</Button>
            <Button type="submit" loading={save.isPending}>Save protection</Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}
