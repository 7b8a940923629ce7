import { Button, Group, Text } from '@mantine/core';
import { mulaw } from 'alawmulaw';
import { useEffect, useRef, useState } from 'react';

/**
 * Listen to a call in progress: the service streams it as mu-law 8 kHz (GET
 * /api/v1/live/calls/{id}/audio, audited); the page decodes it and plays it as it comes, a little
 * behind so the network's jitter is not heard. `data-received` (bytes) and `data-peak` (the
 * loudest sample so far) say what arrived, for the people who automate the dashboard.
 */
export function ListenButton({ callId }: { callId: number }) {
  const [state, setState] = useState<'idle' | 'listening' | 'ended' | 'error'>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const [received, setReceived] = useState({ bytes: 0, peak: 0 });
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);

  async function listen() {
    const controller = new AbortController();
    const audio = new AudioContext();
    stop.current = () => {
      controller.abort();
      void audio.close().catch(() => {});
      stop.current = null;
    };
    setProblem(null);
    setState('listening');
    try {
      const res = await fetch(`/api/v1/live/calls/${callId}/audio`, { credentials: 'same-origin', signal: controller.signal });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => ({}))) as { detail?: unknown };
        throw new Error(typeof body.detail === 'string' ? body.detail : `The service answered ${res.status}`);
      }
      let at = audio.currentTime + 0.3;
      let bytes = 0;
      let peak = 0;
      const reader = res.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const samples = mulaw.decode(value);
        const buffer = audio.createBuffer(1, samples.length, 8000);
        const channel = buffer.getChannelData(0);
        for (let i = 0; i < samples.length; i++) {
          channel[i] = samples[i]! / 32768;
          peak = Math.max(peak, Math.abs(samples[i]!));
        }
        const source = audio.createBufferSource();
        source.buffer = buffer;
        source.connect(audio.destination);
        at = Math.max(at, audio.currentTime + 0.05);
        source.start(at);
        at += buffer.duration;
        bytes += value.length;
        setReceived({ bytes, peak });
      }
      setState('ended');
    } catch (error) {
      if (controller.signal.aborted) return setState('idle');
      setProblem((error as Error).message);
      setState('error');
    } finally {
      stop.current?.();
    }
  }

  const listening = state === 'listening';
  return (
    <Group gap="xs" wrap="wrap" data-received={received.bytes} data-peak={received.peak}>
      <Button size="compact-sm" variant={listening ? 'filled' : 'light'} onClick={() => (listening ? stop.current?.() : void listen())}
        aria-label={listening ? `Stop listening to call ${callId}` : `Listen to call ${callId}`}>
        {listening ? 'Stop listening' : 'Listen'}
      </Button>
      {listening && <Text size="sm" role="status">Listening · {(received.bytes / 8000).toFixed(1)} s received</Text>}
      {state === 'ended' && <Text size="sm" role="status">The call ended.</Text>}
      {problem && <Text size="sm" c="red" role="alert">{problem}</Text>}
    </Group>
  );
}
