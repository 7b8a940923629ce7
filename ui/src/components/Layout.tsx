import type { ReactNode } from 'react';
import { Anchor, AppShell, Burger, Button, Group, NavLink, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useLocation } from 'react-router-dom';
import { useSignOut, type SessionUser } from '../pages/session/queries';
import { NAVIGATION } from '../routes';

export function Layout({ user, children }: { user: SessionUser; children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const signOut = useSignOut();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={1} size="h4">voice-campaigns</Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Anchor component={Link} to="/account" size="sm" visibleFrom="sm" aria-label={`Profile of ${user.email ?? user.username}`}>{user.email ?? user.username}</Anchor>
            <Button variant="default" size="xs" loading={signOut.isPending} onClick={() => signOut.mutate()}>Sign out</Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        {NAVIGATION.filter((item) => !item.ownersOnly || user.kind === 'user').map((item) => (
          <NavLink key={item.to} component={Link} to={item.to} label={item.label} active={item.paths.some((path) => location.pathname.startsWith(path))} onClick={close} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
