import { List, Stack, Text, Title } from '@mantine/core';
import { FIGURES, PERIOD_DEFINITION, TEXT_FIGURES, TEXTS_DEFINITION } from './model';

/** The definitions of docs/analytics.md, in its words; every headline figure links here (#def-<metric>). */
export function Definitions() {
  return (
    <section aria-labelledby="definitions">
      <Stack gap="xs">
        <Title order={3} id="definitions">Definitions</Title>
        <Text size="sm" c="dimmed">From docs/analytics.md. Figures are the API's, rounded as it answers them: money to the cent, success rate and average cost to 4 decimals, average duration to 2.</Text>
        <List size="sm" spacing={4}>
          <List.Item id="def-period"><Text span fw={600} size="sm">Period</Text>: {PERIOD_DEFINITION}</List.Item>
          {FIGURES.map((f) => (
            <List.Item key={f.key} id={`def-${f.key}`}>
              <Text span fw={600} size="sm">{f.label}</Text> ({f.key}): {f.definition}
            </List.Item>
          ))}
          <List.Item id="def-texts"><Text span fw={600} size="sm">Text messages</Text>: {TEXTS_DEFINITION}</List.Item>
          {TEXT_FIGURES.map((f) => (
            <List.Item key={f.key} id={`def-texts-${f.key}`}>
              <Text span fw={600} size="sm">{f.label}</Text> (texts.{f.key}): {f.definition}
            </List.Item>
          ))}
        </List>
      </Stack>
    </section>
  );
}
