import { Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Analysis } from './call-data';

/** The voice vendor's own analysis of the call: its summary, whether it was a success, the person's sentiment. */
export function CallAnalysis({ analysis }: { analysis: Analysis }) {
  return (
    <Card withBorder component="section" aria-labelledby="call-analysis">
      <Stack gap="xs">
        <Title order={3} id="call-analysis">Vendor's analysis</Title>
        {analysis.summary && <Text size="sm">{analysis.summary}</Text>}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {analysis.success && <Text size="sm"><Text span fw={600}>Success evaluation: </Text>{analysis.success}</Text>}
          {analysis.sentiment && <Text size="sm"><Text span fw={600}>Sentiment: </Text>{analysis.sentiment}</Text>}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
