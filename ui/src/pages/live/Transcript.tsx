import { useEffect, useRef } from 'react';
import { Box, Group, Paper, Stack, Text } from '@mantine/core';
import type { Turn } from './live-board';

/**
 * A call's turns, the assistant's on the left on grey and the person's on the right on blue, each
 * named. `live`: the turns still grow, so it is a log in a box of its own height that keeps the
 * newest turn in view; it can take the focus, to be scrolled by keyboard. `announce`: a screen
 * reader reads the turns out as they come (one call's page; on a board of many calls it would be
 * every call talking at once).
 */
export function Transcript({ turns, label, live = false, announce = false, empty }: { turns: Turn[]; label: string; live?: boolean; announce?: boolean; empty: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The box scrolls, not the page: several calls may speak at once.
    if (live && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [live, turns.length]);
  const list = (
    <Stack gap="xs">
      {turns.length === 0 && <Text c="dimmed" size="sm">{empty}</Text>}
      {turns.map((turn, i) => {
        const assistant = turn.role === 'assistant';
        return (
          <Group key={i} justify={assistant ? 'flex-start' : 'flex-end'}>
            <Paper withBorder p="xs" maw="85%" bg={assistant ? 'gray.0' : 'blue.0'}>
              <Text size="xs" fw={700}>{assistant ? 'Assistant' : 'Contact'}</Text>
              <Text size="sm">{turn.text}</Text>
            </Paper>
          </Group>
        );
      })}
    </Stack>
  );
  if (!live) return <Box aria-label={label} role="region">{list}</Box>;
  return (
    <Box ref={box} role="log" aria-live={announce ? 'polite' : 'off'} aria-label={label} tabIndex={0} mah={260} style={{ overflowY: 'auto' }}>
      {list}
    </Box>
  );
}
