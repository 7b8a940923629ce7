import { Card, Stack, Tabs, Text, Title } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSession } from './session/queries';
import { Problem } from '../components/Problem';
import { ApiKeys } from './profile/ApiKeys';
import { DisplayPreferences } from './profile/DisplayPreferences';
import { PasswordChange } from './profile/PasswordChange';
import { useMe } from './profile/queries';
import { SubUsers } from './profile/SubUsers';

const TABS = [
  { path: '/account', value: 'account', label: 'Account' },
  { path: '/api-keys', value: 'api-keys', label: 'API keys' },
  { path: '/sub-users', value: 'sub-users', label: 'Sub-users' },
] as const;

/** The profile area: the account, its API keys and (owners only) its sub-users, one tab each, each with its own address. */
export default function Profile() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const owner = session.data?.kind === 'user';
  const tab = TABS.find((t) => location.pathname.startsWith(t.path))?.value ?? 'account';
  const title = TABS.find((t) => t.value === tab)!.label;
  return (
    <Stack>
      <Title order={2}>{title}</Title>
      <Tabs value={tab} onChange={(value) => navigate(TABS.find((t) => t.value === value)!.path)}>
        <Tabs.List>
          {TABS.filter((t) => owner || t.value === 'account').map((t) => <Tabs.Tab key={t.value} value={t.value}>{t.label}</Tabs.Tab>)}
        </Tabs.List>
      </Tabs>
      {tab === 'account' && <Account />}
      {tab === 'account' && <DisplayPreferences owner={owner} />}
      {tab === 'account' && <PasswordChange />}
      {tab === 'api-keys' && owner && <ApiKeys />}
      {tab === 'sub-users' && owner && <SubUsers />}
    </Stack>
  );
}

function Account() {
  const session = useSession();
  const me = useMe(session.data?.kind === 'user');
  const user = me.data;
  const who = session.data;
  return (
    <Card withBorder>
      <Problem error={me.error} />
      <Text><b>Signed in as</b> {who?.email ?? who?.username}</Text>
      <Text>{who?.kind === 'sub_user' ? 'A sub-user of its owner\'s account' : 'Account owner'}{user?.is_superuser ? ' (superuser)' : ''}</Text>
      {user?.full_name && <Text>Name: {user.full_name}</Text>}
    </Card>
  );
}
