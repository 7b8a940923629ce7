import { useEffect } from 'react';
import { Button, Checkbox, Fieldset, Group, NumberInput, SimpleGrid, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ApiProblem, fieldError } from '../../api/client';
import type { Answer } from '../../api/types';
import { Problem } from '../../components/Problem';
import { useNumberHealthSettings, useSaveNumberHealthSettings } from './queries';

type Settings = Answer<'read_phone_number_health_settings'>;
/** The form's values; the answer-rate ratio as a percentage, as people say it (the API takes a fraction). */
interface Values {
  enabled: boolean; window_days: number | string; min_calls: number | string; percent: number | string;
  short_call_seconds: number | string; short_call_ratio: number | string; rest_hours: number | string;
}

const valuesOf = (s: Settings): Values => ({
  enabled: s.enabled, window_days: s.window_days, min_calls: s.min_calls, percent: Math.round(s.answer_rate_ratio * 100),
  short_call_seconds: s.short_call_seconds, short_call_ratio: s.short_call_ratio, rest_hours: s.rest_hours,
});

/** The account's number-health rule (GET/PUT /phone-numbers/health-settings); the owner's alone to change. */
export function HealthSettings() {
  const settings = useNumberHealthSettings();
  const save = useSaveNumberHealthSettings();
  const form = useForm<Values>({ initialValues: { enabled: true, window_days: 3, min_calls: 30, percent: 50, short_call_seconds: 10, short_call_ratio: 2, rest_hours: 24 } });
  useEffect(() => {
    if (settings.data && !form.isDirty()) {
      form.setInitialValues(valuesOf(settings.data));
      form.setValues(valuesOf(settings.data));
    }
  }, [settings.data]); // eslint-disable-line react-hooks/exhaustive-deps
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const submit = (v: Values) => save.mutate({
    enabled: v.enabled, window_days: Number(v.window_days), min_calls: Number(v.min_calls), answer_rate_ratio: Number(v.percent) / 100,
    short_call_seconds: Number(v.short_call_seconds), short_call_ratio: Number(v.short_call_ratio), rest_hours: Number(v.rest_hours),
  }, {
    onSuccess: (saved) => {
      form.setInitialValues(valuesOf(saved));
      form.setValues(valuesOf(saved));
      notifications.show({ color: 'green', title: 'Number health saved', message: saved.enabled ? 'Numbers are rested automatically' : 'No number is rested automatically' });
    },
  });
  return (
    <form onSubmit={form.onSubmit(submit)} aria-label="Number health settings">
      <Fieldset legend="Number health">
        <Stack gap="sm">
          <Problem error={settings.error} />
          <Checkbox label="Rest a number whose calls go far worse than the account's" {...form.getInputProps('enabled', { type: 'checkbox' })} error={fieldError(problem, 'enabled')} />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput label="Window (days)" description="1 to 30" min={1} max={30} allowDecimal={false} {...form.getInputProps('window_days')} error={fieldError(problem, 'window_days')} />
            <NumberInput label="Minimum calls" description="5 or more" min={5} max={100000} allowDecimal={false} {...form.getInputProps('min_calls')} error={fieldError(problem, 'min_calls')} />
            <NumberInput label="Answer rate under (% of the account's)" description="5 to 100" min={5} max={100} allowDecimal={false} suffix="%" {...form.getInputProps('percent')} error={fieldError(problem, 'answer_rate_ratio')} />
            <NumberInput label="Short call (seconds)" description="1 to 120" min={1} max={120} allowDecimal={false} {...form.getInputProps('short_call_seconds')} error={fieldError(problem, 'short_call_seconds')} />
            <NumberInput label="Short calls over (times the account's)" description="1.1 to 20" min={1.1} max={20} decimalScale={1} {...form.getInputProps('short_call_ratio')} error={fieldError(problem, 'short_call_ratio')} />
            <NumberInput label="Rest (hours)" description="1 to 720" min={1} max={720} allowDecimal={false} {...form.getInputProps('rest_hours')} error={fieldError(problem, 'rest_hours')} />
          </SimpleGrid>
          {save.error && !(problem && problem.fields.length > 0) && <Problem error={save.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => form.reset()} disabled={!form.isDirty()}>Discard changes</Button>
            <Button type="submit" loading={save.isPending}>Save number health</Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}
