import { useState } from 'react';
import { Anchor, Badge, Button, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router-dom';
import { Problem } from '../../components/Problem';
import { useCall } from '../calls/queries';
import { useSession } from '../session/queries';
import { sipAnswer } from './sip-answers';
import { useTestSipRoute, type SipRouteTest as Placed } from './queries';

interface Props {
  campaignId: number;
  /** The saved route: the test calls through what is stored, not what the form holds unsaved. */
  campaignSip: string | null;
  campaignType: string;
}

/**
 * "Test the route" (issue 29): one call through the campaign's saved campaign_sip and trunk to a
 * number the operator types, and the trunk's answer as it comes (owners only, as the API).
 */
export function SipRouteTest({ campaignId, campaignSip, campaignType }: Props) {
  const session = useSession();
  const [open, setOpen] = useState(false);
  if (session.data?.kind !== 'user' || !campaignSip || campaignType !== 'Outbound') return null;
  return (
    <>
      <Group><Button variant="default" size="xs" onClick={() => setOpen(true)}>Test the route</Button></Group>
      <Modal opened={open} onClose={() => setOpen(false)} title="Test the SIP route" size="lg">
        {open && <RouteTestDialog campaignId={campaignId} campaignSip={campaignSip} />}
      </Modal>
    </>
  );
}

function RouteTestDialog({ campaignId, campaignSip }: { campaignId: number; campaignSip: string }) {
  const [phone, setPhone] = useState('');
  const place = useTestSipRoute(campaignId);
  return (
    <Stack>
      <Text size="sm">
        Places one call now through <Text span ff="monospace" style={{ overflowWrap: 'anywhere' }}>{campaignSip}</Text> with the campaign's assistant, and shows the trunk's answer.
        It is a test call: no attempt, no webhook, no text; the do-not-call list, the calling window and the limits still apply.
      </Text>
      {/* The dialog sits inside the campaign form in React's tree: its submit must not bubble to it (a portal does not stop React events). */}
      <form onSubmit={(e) => { e.preventDefault(); e.stopPropagation(); place.mutate(phone); }}>
        <Group align="flex-end">
          <TextInput label="Number to call" placeholder="+14155550100" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} required style={{ flex: 1 }} />
          <Button type="submit" loading={place.isPending} disabled={phone.trim() === ''}>Call now</Button>
        </Group>
      </form>
      <Problem error={place.error} />
      {place.data && <RouteTestResult placed={place.data} />}
    </Stack>
  );
}

/** The call as it goes: ringing through the trunk, then its SIP answer and status. */
function RouteTestResult({ placed }: { placed: Placed }) {
  // Polled too while it rings: a test call through a refusing trunk can end before the live stream is open.
  const call = useCall(placed.call_id, true, 1500);
  const status = call.data?.status ?? placed.status;
  const data = (call.data?.call_data ?? {}) as { sip_response_code?: number; ended_reason?: string };
  const code = data.sip_response_code ?? placed.sip_response_code ?? null;
  const reason = call.data?.call_ended_by_reason ?? data.ended_reason ?? placed.ended_reason;
  const ended = status !== 'in progress';
  return (
    <Stack gap="xs" role="status" aria-label="Test call">
      <Text size="sm">
        <Anchor component={Link} to={`/calls/${placed.call_id}`}>Call {placed.call_id}</Anchor> to {placed.to_number}
        {placed.from_number ? ` from ${placed.from_number}` : ''} via <Text span ff="monospace" style={{ overflowWrap: 'anywhere' }}>{placed.sip_uri}</Text>
      </Text>
      <Group gap="xs">
        {!ended && <Loader size="xs" />}
        <Badge color={!ended ? 'blue' : status === 'finished' ? 'green' : 'red'} variant="light">{status}</Badge>
        {code !== null && <Badge color={code < 300 ? 'green' : 'red'} variant="outline">SIP {sipAnswer(code)}</Badge>}
      </Group>
      {!ended && <Text size="sm" c="dimmed">Calling through the trunk; the answer shows here when the call ends.</Text>}
      {ended && code === null && <Text size="sm">The vendor gave no SIP answer for this call{reason ? `: ${reason}` : ''}.</Text>}
      {ended && code !== null && reason && <Text size="sm" c="dimmed">{reason}</Text>}
      <Problem error={call.error} />
    </Stack>
  );
}
