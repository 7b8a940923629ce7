import { Button, Card, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useChangePassword } from './queries';

/**
 * The account page's password change: the current password, the new one twice. The service checks
 * the current one (its answer shows under that field) and the rules of every password.
 */
export function PasswordChange() {
  const change = useChangePassword();
  const form = useForm({
    initialValues: { current_password: '', new_password: '', repeat: '' },
    validate: { repeat: (value, values) => (value === values.new_password ? null : 'The new passwords differ') },
  });
  const err = (field: string) => fieldError(change.error, field);
  const submit = form.onSubmit(({ current_password, new_password }) =>
    change.mutate({ current_password, new_password }, {
      onSuccess: () => {
        form.reset();
        notifications.show({ color: 'green', message: 'Password changed. Other browsers and tokens signed in with it are signed out.' });
      },
    }));
  return (
    <Card withBorder>
      <form onSubmit={submit} aria-labelledby="password-change-title">
        <Stack maw={420}>
          <Title order={3} id="password-change-title">Change password</Title>
          <Text size="sm" c="dimmed">Every other session and token signed in with this password ends; this browser stays signed in. API keys keep working.</Text>
          <PasswordInput label="Current password" required autoComplete="current-password" {...form.getInputProps('current_password')} error={err('current_password')} />
          <PasswordInput label="New password" required description="8 to 128 characters" autoComplete="new-password" {...form.getInputProps('new_password')} error={err('new_password')} />
          <PasswordInput label="Repeat the new password" required autoComplete="new-password" {...form.getInputProps('repeat')} />
          {change.error && !err('current_password') && !err('new_password') && <Problem error={change.error} />}
          <Button type="submit" loading={change.isPending} w="fit-content">Change password</Button>
        </Stack>
      </form>
    </Card>
  );
}
