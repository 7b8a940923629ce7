import { Stack, Text, Title } from '@mantine/core';

export default function Integrations() {
  return (
    <Stack>
      <Title order={2}>Integrations</Title>
      <Text c="dimmed">This page is being built.</Text>
    </Stack>
  );
}
