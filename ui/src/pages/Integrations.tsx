import { Stack, Tabs, Title } from '@mantine/core';
import { ContactCreation } from './integrations/ContactCreation';
import { Webhooks } from './integrations/Webhooks';

/** The integrations area: post-call webhooks and contact-creation integrations. */
export default function Integrations() {
  return (
    <Stack>
      <Title order={2}>Integrations</Title>
      <Tabs defaultValue="webhooks" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="webhooks">Post-call webhooks</Tabs.Tab>
          <Tabs.Tab value="contact-creation">Contact creation</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="webhooks" pt="md"><Webhooks /></Tabs.Panel>
        <Tabs.Panel value="contact-creation" pt="md"><ContactCreation /></Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
