import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { Problem } from '../../components/Problem';
import type { VoiceConnection } from './model';
import { useDeleteVoiceConnection } from './queries';

/** Asks before deleting; the API's 409 (assistants still name it) stays next to the Delete button. */
export function DeleteConnection({ connection, onClose }: { connection: VoiceConnection | null; onClose: () => void }) {
  const remove = useDeleteVoiceConnection();
  const close = () => { remove.reset(); onClose(); };
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={connection !== null} onClose={close} title="Delete the voice connection?">
      <Stack>
        <Text>The stored credentials of “{connection?.name}” are deleted. Assistants that use it must be changed or deleted first.</Text>
        <Problem error={remove.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>Cancel</Button>
          <Button color="red" loading={remove.isPending} onClick={() => connection && remove.mutate(connection.id, { onSuccess: onClose })}>Delete connection</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
