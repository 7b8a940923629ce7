import { useEffect, useState } from 'react';
import { Button, Fieldset, Group, NumberInput, Stack, Text } from '@mantine/core';
import { fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import type { Campaign } from './model';
import { useCampaignPrivacy, useSaveCampaignPrivacy } from './queries';

const days = (n: number | null) => (n === null ? 'until deleted' : `${n} days`);

/**
 * A campaign's own, stricter retention (GET/PUT /campaigns/{id}/privacy): the shorter of it and the
 * account's applies. Only the owner changes it (the API's 403); a sub-user reads it.
 */
export function CampaignRetention({ campaign, isOwner }: { campaign: Campaign; isOwner: boolean }) {
  const settings = useCampaignPrivacy(campaign.id);
  const save = useSaveCampaignPrivacy(campaign.id);
  const [value, setValue] = useState<number | string | undefined>(undefined);
  useEffect(() => {
    if (settings.data && value === undefined) setValue(settings.data.retention_days ?? '');
  }, [settings.data, value]);
  const data = save.data ?? settings.data;
  const placed = fieldError(save.error, 'retention_days');
  const submit = () => save.mutate({ retention_days: value === '' || value === undefined ? null : Number(value) });
  return (
    <form onSubmit={(e) => { e.preventDefault(); if (isOwner) submit(); }} aria-label="Retention settings">
      <Fieldset legend="Retention">
        <Stack gap="sm">
          <Problem error={settings.error} />
          <NumberInput
            label="This campaign keeps personal data for (days)" description="Empty: the account's retention applies; a campaign can only keep less"
            min={1} max={36500} clampBehavior="none" allowDecimal={false} readOnly={!isOwner}
            value={value ?? ''} onChange={(v) => { setValue(v); save.reset(); }} error={placed}
          />
          {data && (
            <Text size="sm" c="dimmed">
              Account: {days(data.account_retention_days)}. Applies to this campaign: {days(data.effective_retention_days)}.
            </Text>
          )}
          {save.error && !placed && <Problem error={save.error} />}
          {isOwner ? (
            <Group justify="flex-end">
              {save.isSuccess && <Text size="sm" role="status">Retention saved.</Text>}
              <Button type="submit" loading={save.isPending}>Save retention</Button>
            </Group>
          ) : <Text size="sm">Only the account owner changes this.</Text>}
        </Stack>
      </Fieldset>
    </form>
  );
}
