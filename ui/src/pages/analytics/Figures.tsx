import { Anchor, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useFormat } from '../../format/useFormat';
import { FIGURES, formatChange, formatFigure, type Detailed } from './model';

/**
 * The headline figures: each a group named by its label, the API's value, and with a comparison
 * the previous period's value and the change as the API answered it. Each label links to its definition.
 */
export function Figures({ report }: { report: Detailed }) {
  const { money } = useFormat();
  return (
    <section aria-labelledby="headline-figures">
      <Stack gap="sm">
        <Title order={3} id="headline-figures">Headline figures</Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }}>
          {FIGURES.map((f) => (
            <Paper key={f.key} withBorder p="sm" role="group" aria-labelledby={`fig-${f.key}`}>
              <Stack gap={4}>
                <Anchor href={`#def-${f.key}`} id={`fig-${f.key}`} size="sm">{f.label}</Anchor>
                <Text fz="xl" fw={700}>{formatFigure(f.kind, report.totals[f.key], money)}</Text>
                {report.previous && (
                  <>
                    <Text size="xs" c="dimmed">Previous period: {formatFigure(f.kind, report.previous.totals[f.key], money)}</Text>
                    <Text size="xs">Change: {formatChange(f.kind, report.change?.[f.key], money)}</Text>
                  </>
                )}
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
      </Stack>
    </section>
  );
}
