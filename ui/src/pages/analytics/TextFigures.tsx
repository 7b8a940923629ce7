import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useFormat } from '../../format/useFormat';
import { TEXT_FIGURES, formatChange, formatFigure, type Detailed } from './model';

/**
 * The "Text messages" card: the report's texts figures, and with a comparison the previous
 * period's and the change, as the API answered them. The call type filter does not apply to texts,
 * so the card says so when one is chosen.
 */
export function TextFigures({ report, callTypesChosen }: { report: Detailed; callTypesChosen: boolean }) {
  const { money } = useFormat();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="text-messages">
      <Stack gap="sm">
        <Title order={3} id="text-messages">Text messages</Title>
        {callTypesChosen && <Text size="sm" c="dimmed">The call type filter does not apply to texts: these are all texts of the period and campaigns.</Text>}
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          {TEXT_FIGURES.map((f) => (
            <Stack key={f.key} gap={4} role="group" aria-labelledby={`text-fig-${f.key}`}>
              <Anchor href={`#def-texts-${f.key}`} id={`text-fig-${f.key}`} size="sm">{f.label}</Anchor>
              <Text fz="lg" fw={700}>{formatFigure(f.kind, report.texts[f.key], money)}</Text>
              {report.previous && (
                <>
                  <Text size="xs" c="dimmed">Previous period: {formatFigure(f.kind, report.previous.texts[f.key], money)}</Text>
                  <Text size="xs">Change: {formatChange(f.kind, report.change?.texts[f.key], money)}</Text>
                </>
              )}
            </Stack>
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
