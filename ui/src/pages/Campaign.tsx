import { Title } from '@mantine/core';

/** Placeholder: being built. */
export default function Campaign() {
  return <Title order={2}>Campaign</Title>;
}
