/**
 * How long `voice-campaigns serve` takes from launch to /readyz answering 200 on a fresh
 * embedded data directory (the operator's first start), and to its first line of output.
 * The machine may be loaded (shared CI, 2 cores): every figure is also given as a ratio to
 * the start of `node -e 0` measured in the same run, which moves with the load.
 * With LOG_LEVEL=info the JSON lines name each start-up step, so the time spent between
 * them is printed too (the step that dominates is the one to cut).
 * Run: npm run bench:startup   (RUNS=3 by default; WARM=1 adds a second start on the same directory)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../test/helpers/serve-process.ts';

const RUNS = Number(process.env.RUNS ?? 3);
const BIN = join(import.meta.dirname, '../bin/voice-campaigns.mjs');

interface Start {
  firstLineMs: number;
  readyMs: number;
  /** Milliseconds from launch at which each logged message appeared. */
  steps: { msg: string; atMs: number }[];
}

async function nodeBaseline(): Promise<number> {
  const started = performance.now();
  await new Promise((resolve) => spawn(process.execPath, ['-e', '0']).once('exit', resolve));
  return performance.now() - started;
}

async function startOnce(dataDir: string): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let firstLineMs = NaN;
  const steps: Start['steps'] = [];
  let buffered = '';
  const onOutput = (chunk: Buffer) => {
    const now = performance.now() - started;
    if (Number.isNaN(firstLineMs)) firstLineMs = now;
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      try {
        const msg = (JSON.parse(line) as { msg?: string }).msg;
        if (msg && !msg.includes('request')) steps.push({ msg, atMs: now });
      } catch {
        steps.push({ msg: line, atMs: now });
      }
    }
  };
  child.stdout!.on('data', onOutput);
  child.stderr!.on('data', onOutput);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${steps.map((s) => s.msg).join('\n')}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
      if (ok) return { firstLineMs, readyMs: performance.now() - started, steps };
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const baselines: number[] = [];
const fresh: Start[] = [];
const warm: Start[] = [];
for (let i = 0; i < RUNS; i++) {
  baselines.push(await nodeBaseline());
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  try {
    fresh.push(await startOnce(dataDir));
    if (process.env.WARM === '1') warm.push(await startOnce(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`run ${i + 1}/${RUNS}: node -e 0 ${seconds(baselines.at(-1)!)}, fresh start ready ${seconds(fresh.at(-1)!.readyMs)}, first line ${seconds(fresh.at(-1)!.firstLineMs)}`);
}

const base = median(baselines);
const report = (name: string, starts: Start[]) => {
  if (starts.length === 0) return;
  const ready = median(starts.map((s) => s.readyMs));
  const first = median(starts.map((s) => s.firstLineMs));
  console.log(`${name}: /readyz 200 after ${seconds(ready)} (${(ready / base).toFixed(1)}× node -e 0), first line after ${seconds(first)} (${(first / base).toFixed(1)}×)`);
  // The steps of the median run, each with the time since the previous line.
  const typical = [...starts].sort((a, b) => a.readyMs - b.readyMs)[Math.floor(starts.length / 2)]!;
  let previous = 0;
  for (const step of typical.steps) {
    console.log(`  ${seconds(step.atMs).padStart(8)}  +${seconds(step.atMs - previous).padStart(8)}  ${step.msg}`);
    previous = step.atMs;
  }
};
console.log(`node -e 0 (baseline, median of ${RUNS}): ${seconds(base)}`);
report('fresh data directory', fresh);
report('second start, same directory', warm);
