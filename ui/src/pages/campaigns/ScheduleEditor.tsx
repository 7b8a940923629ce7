import { useMemo, useState } from 'react';
import { ActionIcon, Alert, Badge, Button, Checkbox, Fieldset, Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { type CampaignValues, DAY_NAMES, WEEKDAYS, type Weekday } from './model';

// Every IANA zone the browser knows; UTC first, since the API's default is UTC.
const zones = () => {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...all.filter((z) => z !== 'UTC')];
};

/**
 * work_schedule: a time zone, the hours of each weekday (several intervals a day, none = no calls that day)
 * and dates with no calls. `errors` are the API's messages about the schedule, shown here since its
 * fields are nested.
 */
export function ScheduleEditor({ form, errors }: { form: UseFormReturnType<CampaignValues>; errors: string[] }) {
  const v = form.values;
  const zoneOptions = useMemo(zones, []);
  return (
    <Fieldset legend="Weekly schedule">
      <Stack gap="sm">
        <Switch label="Call only on a weekly schedule" {...form.getInputProps('has_schedule', { type: 'checkbox' })} />
        {v.has_schedule && (
          <>
            <Select label="Schedule time zone" data={zoneOptions} searchable allowDeselect={false} limit={50} {...form.getInputProps('timezone')} />
            <Switch
              label="Only on certain days and hours (off: every day, all day)"
              {...form.getInputProps('limit_days', { type: 'checkbox' })}
            />
            {v.limit_days && WEEKDAYS.map((day) => <DayHours key={day} form={form} day={day} />)}
            <SkippedDates form={form} />
          </>
        )}
        {errors.length > 0 && (
          <Alert color="red" title="Schedule" role="alert">
            {errors.map((e) => <div key={e}>{e}</div>)}
          </Alert>
        )}
      </Stack>
    </Fieldset>
  );
}

function DayHours({ form, day }: { form: UseFormReturnType<CampaignValues>; day: Weekday }) {
  const name = DAY_NAMES[day];
  const intervals = form.values.days[day];
  const on = intervals.length > 0;
  return (
    <Stack gap={4}>
      <Checkbox
        label={`Calls on ${name}`}
        checked={on}
        onChange={(e) => form.setFieldValue(`days.${day}`, e.currentTarget.checked ? [{ from: '09:00', to: '18:00' }] : [])}
      />
      {intervals.map((_, i) => (
        <Group key={i} gap="xs" align="flex-end" wrap="nowrap" pl="lg">
          <TextInput type="time" label={`${name} from (${i + 1})`} {...form.getInputProps(`days.${day}.${i}.from`)} />
          <TextInput type="time" label={`${name} until (${i + 1})`} {...form.getInputProps(`days.${day}.${i}.to`)} />
          <ActionIcon variant="subtle" color="red" mb={4} aria-label={`Remove ${name} hours ${i + 1}`} onClick={() => form.removeListItem(`days.${day}`, i)}>
            ×
          </ActionIcon>
        </Group>
      ))}
      {on && (
        <Button variant="subtle" size="compact-sm" ml="lg" w="fit-content" onClick={() => form.insertListItem(`days.${day}`, { from: '13:00', to: '18:00' })}>
          Add hours on {name}
        </Button>
      )}
    </Stack>
  );
}

function SkippedDates({ form }: { form: UseFormReturnType<CampaignValues> }) {
  const [date, setDate] = useState('');
  const dates = form.values.skip_dates;
  const add = () => {
    if (date && !dates.includes(date)) form.setFieldValue('skip_dates', [...dates, date].sort());
    setDate('');
  };
  return (
    <Stack gap={4}>
      <Group gap="xs" align="flex-end">
        <TextInput type="date" label="Skipped date" description="A local date with no calls (a holiday)" value={date} onChange={(e) => setDate(e.currentTarget.value)} />
        <Button variant="default" onClick={add} disabled={!date}>Add skipped date</Button>
      </Group>
      {dates.length === 0 ? <Text size="sm" c="dimmed">No skipped dates.</Text> : (
        <Group gap="xs" aria-label="Skipped dates" role="list">
          {dates.map((d) => (
            <Badge key={d} role="listitem" variant="light" color="gray" c="dark.9" rightSection={
              <ActionIcon size="xs" variant="transparent" c="dark.9" aria-label={`Remove skipped date ${d}`} onClick={() => form.setFieldValue('skip_dates', dates.filter((x) => x !== d))}>×</ActionIcon>
            }>{d}</Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}
