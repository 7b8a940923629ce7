import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { Problem } from '../../components/Problem';
import { useRemoveSuppression } from './queries';
import type { Suppression } from './model';

/** Asks before removing; the API's 403 or 409 stays next to the Remove button in the dialog. */
export function RemoveSuppression({ suppression, onClose }: { suppression: Suppression | null; onClose: () => void }) {
  const remove = useRemoveSuppression();
  const close = () => { remove.reset(); onClose(); };
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={suppression !== null} onClose={close} title="Remove the number from the do-not-call list?">
      <Stack>
        <Text>
          {suppression?.phone_number} may be called again. Contacts it moved to do_not_disturb stay so until you change them.
          The removal is written to the audit log.
        </Text>
        <Problem error={remove.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>Cancel</Button>
          <Button color="red" loading={remove.isPending} onClick={() => suppression && remove.mutate(suppression.id, { onSuccess: close })}>Remove number</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
