import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, must } from '../../api/client';
import { Problem } from '../../components/Problem';
import type { VoiceConnection } from './model';

/** Asks before deleting; the API's 409 (assistants still name it) stays next to the Delete button. */
export function DeleteConnection({ connection, onClose }: { connection: VoiceConnection | null; onClose: () => void }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (c: VoiceConnection) => must(api.DELETE('/api/v1/voice-connections/{id}', { params: { path: { id: c.id } } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['voice-connections'] });
      onClose();
    },
  });
  const close = () => { remove.reset(); onClose(); };
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={connection !== null} onClose={close} title="Delete the voice connection?">
      <Stack>
        <Text>The stored credentials of “{connection?.name}” are deleted. Assistants that use it must be changed or deleted first.</Text>
        <Problem error={remove.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>Cancel</Button>
          <Button color="red" loading={remove.isPending} onClick={() => connection && remove.mutate(connection)}>Delete connection</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
