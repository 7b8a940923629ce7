import { Button, Center, Loader, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { CreateOwner } from './CreateOwner';
import { useSetup, useSignIn } from './queries';
import { Problem } from '../../components/Problem';

export function SignIn() {
  const setup = useSetup();
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder p="lg" w="100%" maw={380}>
        {/* First run (no account yet): the owner is created here instead; an error asking falls back to signing in. */}
        {setup.isPending ? <Loader aria-label="Loading" /> : setup.data?.needs_owner ? <CreateOwner /> : <SignInForm />}
      </Paper>
    </Center>
  );
}

function SignInForm() {
  const signIn = useSignIn();
  const form = useForm({ initialValues: { username: '', password: '' } });
  return (
    <form onSubmit={form.onSubmit((values) => signIn.mutate(values))}>
      <Stack>
        <Title order={1} size="h3">Sign in to voice-campaigns</Title>
        <TextInput label="Email" autoComplete="username" {...form.getInputProps('username')} />
        <PasswordInput label="Password" autoComplete="current-password" {...form.getInputProps('password')} />
        <Problem error={signIn.error} />
        <Button type="submit" loading={signIn.isPending}>Sign in</Button>
      </Stack>
    </form>
  );
}
