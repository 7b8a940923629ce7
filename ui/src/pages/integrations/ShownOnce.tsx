import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A secret the API answers once: shown with a copy button until the user closes it. */
export function ShownOnce({ title, secret, copyLabel, onClose, children }: { title: string; secret: string; copyLabel: string; onClose: () => void; children?: ReactNode }) {
  return (
    <Alert title={title} color="green" withCloseButton closeButtonLabel="Close" onClose={onClose}>
      <Stack gap="xs">
        <Text size="sm">Copy it now: it is shown only once.</Text>
        <Group wrap="wrap">
          <Code style={{ wordBreak: 'break-all' }}>{secret}</Code>
          <CopyButton value={secret}>{({ copied, copy }) => <Button size="xs" onClick={copy}>{copied ? 'Copied' : copyLabel}</Button>}</CopyButton>
        </Group>
        {children}
      </Stack>
    </Alert>
  );
}
