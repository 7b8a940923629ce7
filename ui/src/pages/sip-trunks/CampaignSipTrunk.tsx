import { Select } from '@mantine/core';
import { fieldError } from '../../api/client';
import { useSession } from '../session/queries';
import { useCampaignSipTrunk, useSetCampaignSipTrunk, useSipTrunks } from './queries';

/**
 * The SIP trunk whose credentials and caller IDs a campaign's calls use (issue 29), beside the
 * Campaign SIP field. Saved at once (PUT /campaigns/{id}/sip-trunk, owners only); a new campaign
 * chooses it once saved.
 */
export function CampaignSipTrunk({ campaignId }: { campaignId: number | null }) {
  const session = useSession();
  const owner = session.data?.kind === 'user';
  const trunks = useSipTrunks(owner);
  const current = useCampaignSipTrunk(owner ? campaignId : null);
  const set = useSetCampaignSipTrunk(campaignId ?? 0);
  if (!owner) return null;
  const data = (trunks.data?.data ?? []).map((t) => ({ value: String(t.id), label: t.name }));
  const value = current.data?.sip_trunk_id == null ? null : String(current.data.sip_trunk_id);
  return (
    <Select
      label="SIP trunk" placeholder={campaignId === null ? 'Save the campaign first' : 'None (the trunk authenticates by IP)'} data={data} clearable
      disabled={campaignId === null || set.isPending} value={value}
      description="Credentials and caller IDs of the trunk at the Campaign SIP address (Voice connections page); saved at once"
      onChange={(v) => set.mutate(v === null ? null : Number(v))}
      error={fieldError(set.error, 'sip_trunk_id') ?? (set.error ? set.error.message : undefined)}
    />
  );
}
