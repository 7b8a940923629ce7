import { Stack, Text, Title } from '@mantine/core';

export default function Contacts() {
  return (
    <Stack>
      <Title order={2}>Contacts</Title>
      <Text c="dimmed">This page is being built.</Text>
    </Stack>
  );
}
