import { Stack, Tabs, Title } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from './session/queries';
import { AuditLog } from './compliance/AuditLog';
import { DoNotCall } from './compliance/DoNotCall';
import { SettingsTab } from './compliance/SettingsTab';
import { CallCapacity } from './compliance/CallCapacity';
import { Retention } from './compliance/Retention';
import { Redaction } from './compliance/Redaction';
import { PersonData } from './compliance/PersonData';

// Longest address first: /compliance is a prefix of the others.
const TABS = [
  { path: '/compliance/settings', value: 'settings', label: 'Quiet hours and caps', ownersOnly: false },
  { path: '/compliance/audit', value: 'audit', label: 'Audit log', ownersOnly: true },
  { path: '/compliance/privacy', value: 'privacy', label: 'Privacy', ownersOnly: false },
  { path: '/compliance', value: 'list', label: 'Do-not-call list', ownersOnly: false },
] as const;
const ORDER = ['list', 'settings', 'privacy', 'audit'] as const;

/**
 * The compliance area: the do-not-call list, the quiet hours and caps, privacy (retention, and one
 * person's export and erasure) and (owners only) the audit log, one tab each, each with its own
 * address. Sub-users add numbers and read the settings.
 */
export default function Compliance() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const owner = session.data?.kind === 'user';
  const found = TABS.find((t) => location.pathname.startsWith(t.path)) ?? TABS[3];
  const tab = found.ownersOnly && !owner ? TABS[3] : found;
  const visible = ORDER.map((v) => TABS.find((t) => t.value === v)!).filter((t) => owner || !t.ownersOnly);
  return (
    <Stack>
      <Title order={2}>Compliance</Title>
      <Tabs value={tab.value} onChange={(value) => navigate(TABS.find((t) => t.value === value)!.path)}>
        <Tabs.List>
          {visible.map((t) => <Tabs.Tab key={t.value} value={t.value}>{t.label}</Tabs.Tab>)}
        </Tabs.List>
      </Tabs>
      {tab.value === 'list' && <DoNotCall owner={owner} />}
      {tab.value === 'settings' && <SettingsTab owner={owner} />}
      {tab.value === 'settings' && <CallCapacity owner={owner} />}
      {tab.value === 'privacy' && <Retention owner={owner} />}
      {tab.value === 'privacy' && <Redaction owner={owner} />}
      {tab.value === 'privacy' && <PersonData owner={owner} />}
      {tab.value === 'audit' && owner && <AuditLog />}
    </Stack>
  );
}
