import { Title } from '@mantine/core';

/** Placeholder: being built. */
export default function VoiceConnections() {
  return <Title order={2}>VoiceConnections</Title>;
}
