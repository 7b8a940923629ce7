import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { Problem } from '../../components/Problem';
import type { Assistant } from './model';
import { useDeleteAssistant } from './queries';

/** Asks before deleting; the API's 409 (campaigns still use it) stays next to the Delete button and nothing is deleted. */
export function DeleteAssistant({ assistant, onClose }: { assistant: Assistant | null; onClose: () => void }) {
  const remove = useDeleteAssistant();
  const close = () => { remove.reset(); onClose(); };
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={assistant !== null} onClose={close} title="Delete the assistant?">
      <Stack>
        <Text>“{assistant?.name}” is deleted for good. A campaign that uses it must get another assistant (or none) first.</Text>
        <Problem error={remove.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>Cancel</Button>
          <Button color="red" loading={remove.isPending} onClick={() => assistant && remove.mutate(assistant.id, { onSuccess: onClose })}>Delete assistant</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
