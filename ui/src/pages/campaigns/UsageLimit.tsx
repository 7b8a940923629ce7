import { Fieldset, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { fieldError } from '../../api/client';
import { useFormat } from '../../format/useFormat';
import { type Campaign, type CampaignValues, LIMIT_UNITS } from './model';

/**
 * limit_value in limit_unit over limit_start..limit_end (docs/dialer.md, Usage limits). The period is
 * edited in UTC, said in the labels, so what is typed is what is stored.
 */
export function UsageLimit({ form, error, campaign }: { form: UseFormReturnType<CampaignValues>; error: unknown; campaign?: Campaign }) {
  const f = useFormat();
  // A limit in money reads as money; contacts and minutes as the count with its unit.
  const amount = (v: number | null | undefined) => (campaign?.limit_unit === 'cost' ? f.money(v ?? 0) : String(v ?? 0));
  return (
    <Fieldset legend="Usage limit">
      <Stack gap="xs">
        <Group grow align="flex-start">
          <NumberInput label="Limit value" min={0} {...form.getInputProps('limit_value')} error={fieldError(error, 'limit_value')} />
          <Select label="Limit unit" placeholder="No limit" data={[...LIMIT_UNITS]} clearable {...form.getInputProps('limit_unit')} error={fieldError(error, 'limit_unit')} />
        </Group>
        <Group grow align="flex-start">
          <TextInput type="datetime-local" label="Limit period start (UTC)" {...form.getInputProps('limit_start')} error={fieldError(error, 'limit_start')} />
          <TextInput type="datetime-local" label="Limit period end (UTC)" {...form.getInputProps('limit_end')} error={fieldError(error, 'limit_end')} />
        </Group>
        {campaign && campaign.limit_value !== null && campaign.limit_value !== undefined && (
          <Text size="sm">
            Used {amount(campaign.limit_usage)} of {amount(campaign.limit_value)}{campaign.limit_unit === 'cost' ? '' : ` ${campaign.limit_unit ?? ''}`}
            {campaign.limit_reached ? ' — limit reached: no new calls start' : ''}
          </Text>
        )}
      </Stack>
    </Fieldset>
  );
}
