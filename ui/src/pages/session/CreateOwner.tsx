import { Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useCreateOwner } from './queries';

/**
 * The first run: no account exists yet, so the sign-in page offers to create the owner. The
 * rules are the service's (8 to 128 characters for the password); the form only checks the two
 * passwords match, so a typo does not lock the owner out of a new service.
 */
export function CreateOwner() {
  const create = useCreateOwner();
  const form = useForm({
    initialValues: { email: '', full_name: '', password: '', repeat: '' },
    validate: { repeat: (value, values) => (value === values.password ? null : 'The passwords differ') },
  });
  const err = (field: string) => fieldError(create.error, field);
  return (
    <form onSubmit={form.onSubmit(({ email, full_name, password }) => create.mutate({ email, password, full_name: full_name.trim() || null }))}>
      <Stack>
        <Title order={1} size="h3">Welcome to voice-campaigns</Title>
        <Text size="sm">No account exists yet. Create the owner account: it can do everything, and creates the others.</Text>
        <TextInput label="Email" type="email" required autoComplete="username" {...form.getInputProps('email')} error={err('email')} />
        <TextInput label="Name" autoComplete="name" {...form.getInputProps('full_name')} error={err('full_name')} />
        <PasswordInput label="Password" required description="8 to 128 characters" autoComplete="new-password" {...form.getInputProps('password')} error={err('password')} />
        <PasswordInput label="Repeat the password" required autoComplete="new-password" {...form.getInputProps('repeat')} />
        {create.error && !err('email') && !err('password') && !err('full_name') && <Problem error={create.error} />}
        <Button type="submit" loading={create.isPending}>Create the owner account</Button>
      </Stack>
    </form>
  );
}
