import { ActionIcon, Button, Fieldset, Group, NumberInput, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { CampaignValues } from './model';

/** "90" minutes as a person reads it: 1 h 30 min. */
const readable = (m: number) => {
  const d = Math.floor(m / 1440), h = Math.floor((m % 1440) / 60), min = m % 60;
  return [d && `${d} d`, h && `${h} h`, min && `${min} min`].filter(Boolean).join(' ') || '0 min';
};

/**
 * call_interval: minutes (1 to 10080, one week) the n-th retry waits after the previous attempt; the last
 * value repeats for later retries, and none means 60 minutes (docs/dialer.md).
 */
export function RetryIntervals({ form, error }: { form: UseFormReturnType<CampaignValues>; error?: string }) {
  const list = form.values.call_interval;
  return (
    <Fieldset legend="Retry intervals">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          Minutes each retry waits after the previous call; the last one repeats. None: 60 minutes.
        </Text>
        {list.map((m, i) => (
          <Group key={i} gap="xs" align="flex-end" wrap="nowrap">
            <NumberInput
              label={`Retry ${i + 1} after (minutes)`} min={1} max={10080} allowDecimal={false} w={200}
              description={typeof m === 'number' ? readable(m) : undefined}
              {...form.getInputProps(`call_interval.${i}`)}
            />
            <ActionIcon variant="subtle" color="red" mb={typeof m === 'number' ? 24 : 4} aria-label={`Remove retry ${i + 1}`} onClick={() => form.removeListItem('call_interval', i)}>×</ActionIcon>
          </Group>
        ))}
        <Button variant="default" w="fit-content" disabled={list.length >= 50} onClick={() => form.insertListItem('call_interval', list[list.length - 1] ?? 60)}>
          Add retry interval
        </Button>
        {error && <Text c="red" size="sm" role="alert">{error}</Text>}
      </Stack>
    </Fieldset>
  );
}
