/**
 * The dashboards of bench/live.ts, in a process of their own (so their work is not counted as
 * the service's): BENCH_CLIENTS connections to the stream at argv[2] (X-API-Key argv[3]), each
 * noting, for every event whose data has `at`, how long after `at` it arrived. Prints "ready"
 * once every stream has opened, and on a "report" line from stdin the delays as one JSON line.
 */
const [url, key] = process.argv.slice(2) as [string, string];
const clients = Number(process.env.BENCH_CLIENTS ?? 50);
const delays: number[] = [];
let opened = 0;

async function watch() {
  const res = await fetch(url, { headers: { accept: 'text/event-stream', 'x-api-key': key } });
  if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
  if (++opened === clients) process.stdout.write('ready\n');
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const line = block.split('\n').find((l) => l.startsWith('data:'));
      if (!line) continue;
      const at = (JSON.parse(line.slice(5)) as { at?: string }).at;
      if (at) delays.push(Date.now() - Date.parse(at));
    }
  }
}

for (let i = 0; i < clients; i++) void watch().catch((error: Error) => { process.stderr.write(`${error.message}\n`); process.exit(1); });
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text: string) => {
  if (!text.includes('report')) return;
  const sorted = delays.splice(0).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  process.stdout.write(`${JSON.stringify({ n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 })}\n`);
});
