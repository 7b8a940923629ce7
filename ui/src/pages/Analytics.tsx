import { Stack, Text, Title } from '@mantine/core';

export default function Analytics() {
  return (
    <Stack>
      <Title order={2}>Analytics</Title>
      <Text c="dimmed">This page is being built.</Text>
    </Stack>
  );
}
