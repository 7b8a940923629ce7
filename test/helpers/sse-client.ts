import { waitFor } from './wait-for.ts';

export interface SseEvent {
  id: string | null;
  event: string;
  data: any;
}

export interface SseStream {
  status: number;
  events: SseEvent[];
  /** Waits until `predicate` holds for the events received so far. */
  until(predicate: (events: SseEvent[]) => boolean, timeoutMs?: number): Promise<SseEvent[]>;
  close(): void;
}

/**
 * A server-sent events client over a real HTTP connection, parsing the stream as a browser's
 * EventSource does (id, event, data lines; a blank line ends an event; comments ignored).
 */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  if (res.ok && res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const fields = { id: null as string | null, event: 'message', data: [] as string[] };
            for (const line of block.split('\n')) {
              if (line.startsWith(':') || line === '') continue;
              const i = line.indexOf(':');
              const name = i < 0 ? line : line.slice(0, i);
              const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
              if (name === 'id') fields.id = value;
              else if (name === 'event') fields.event = value;
              else if (name === 'data') fields.data.push(value);
            }
            if (fields.data.length === 0) continue;
            const text = fields.data.join('\n');
            let data: unknown = text;
            try {
              data = JSON.parse(text);
            } catch {
              // a plain-text data field stays text
            }
            events.push({ id: fields.id, event: fields.event, data });
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  } else {
    events.push({ id: null, event: 'error', data: await res.text() });
  }
  return {
    status: res.status,
    events,
    async until(predicate, timeoutMs = 10_000) {
      await waitFor(async () => predicate(events), timeoutMs, async () => `events so far: ${JSON.stringify(events.map((e) => [e.id, e.event]))}`);
      return events;
    },
    close: () => controller.abort(),
  };
}
