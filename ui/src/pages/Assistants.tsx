import { Title } from '@mantine/core';

/** Placeholder: being built. */
export default function Assistants() {
  return <Title order={2}>Assistants</Title>;
}
