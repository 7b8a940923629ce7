/**
 * Redaction throughput (issue "Privacy by default"): the offline redaction engine over 1 KB
 * transcripts, against a bare copy of the same strings in the same run (each string
 * round-tripped through a UTF-8 Buffer: the least a logger or webhook sender does with a text
 * it keeps). Printed: transcripts/s for both, their ratio, and the cost per call: one call's
 * 4 KB transcript redacted plus its post-call payload through redactDeep.
 *
 * The transcripts are the labelled set's (test/fixtures/redaction/), cut and joined to 1 KB,
 * mixed with value-free turns so about a third of them hold a planted value, as a call's
 * turns mostly do not.
 *   npm run bench:redaction
 *   BENCH_SECONDS=5 npm run bench:redaction
 */
import { createRedactor } from '../src/modules/privacy/redaction/redaction.ts';
import { DEFAULT_REDACTION_CATEGORIES, REDACTION_CATEGORIES } from '../src/modules/privacy/redaction/redaction.types.ts';
import { buildLabelledSet } from '../test/fixtures/redaction/labelled-set.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const TRANSCRIPT_BYTES = 1024;
const PASSES = 5;

const PLAIN_TURNS = [
  'Agent: Hi, this is the assistant from the clinic, calling to confirm your appointment next week. Is now a good time?',
  'Caller: Yeah, sure, go ahead. I was actually going to call you about that, I might need to move it to the afternoon.',
  'Agent: No problem. We have openings on Tuesday at two thirty or Thursday at four. Which one works better for you?',
  'Caller: Thursday is better, my daughter can drive me then. Do I need to bring anything with me?',
  'Agent: Just your insurance card and a list of the medicines you take. Please arrive fifteen minutes early.',
  'Cliente: Sí, perfecto, el jueves me va mejor. ¿Tengo que llevar algo? Agente: Solo la tarjeta sanitaria.',
  "Client : D'accord, jeudi c'est parfait. Je dois apporter quelque chose ? Agent : Votre carte Vitale, merci.",
];

function buildTranscripts(): string[] {
  const labelled = buildLabelledSet().map((t) => t.text);
  const transcripts: string[] = [];
  let withValues = 0;
  for (let i = 0; transcripts.length < 600; i++) {
    let text = '';
    // One transcript in three gets a labelled turn (which holds values); the rest are plain.
    if (i % 3 === 0) text += labelled[withValues++ % labelled.length] + '\n';
    let turn = i;
    while (text.length < TRANSCRIPT_BYTES) text += PLAIN_TURNS[turn++ % PLAIN_TURNS.length] + '\n';
    transcripts.push(text.slice(0, TRANSCRIPT_BYTES));
  }
  return transcripts;
}

type Work = { strings: readonly string[]; work: (s: string) => number };

/**
 * Strings per second of each work, the median of PASSES passes. The passes interleave the
 * works, so a neighbour loading the machine for a while slows them all alike and the ratios
 * hold. `sink` keeps the work from being optimised away.
 */
let sink = 0;
function rates(works: readonly Work[]): number[] {
  for (const { strings, work } of works) for (let i = 0; i < 3; i++) for (const s of strings) sink += work(s); // JIT warm-up
  const passes: number[][] = works.map(() => []);
  for (let pass = 0; pass < PASSES; pass++) {
    works.forEach(({ strings, work }, index) => {
      let done = 0;
      const started = performance.now();
      const until = started + (SECONDS * 1000) / PASSES;
      while (performance.now() < until) {
        for (const s of strings) sink += work(s);
        done += strings.length;
      }
      passes[index]!.push((done * 1000) / (performance.now() - started));
    });
  }
  return passes.map((measured) => measured.sort((a, b) => a - b)[Math.floor(PASSES / 2)]!);
}

const transcripts = buildTranscripts();
const defaults = createRedactor({ categories: DEFAULT_REDACTION_CATEGORIES, keepPhones: ['+12125550100'] });
const everything = createRedactor({ categories: REDACTION_CATEGORIES, keepPhones: ['+12125550100'] });

// One call: a 4 KB transcript and the payload a post-call webhook carries.
const calls = Array.from({ length: 100 }, (_, i) => ({
  transcript: transcripts.slice((i * 4) % 596, ((i * 4) % 596) + 4).join(''),
  payload: {
    call: { id: `call_${i}`, status: 'ended', durationSeconds: 184, endedReason: 'customer-ended-call' },
    contact: { phone: '+12125550100', name: 'Ana Lopez', tags: ['vip', 'renewal'] },
    extracted: { email: 'ana.lopez@gmail.com', callback: 'call me at 617-555-0148 after 5', notes: transcripts[i]!.slice(0, 300), agreed: true, amount: 120.5 },
    summary: 'The caller confirmed the appointment and asked for a reminder by text.',
  },
}));

const [bare, redactedDefault, redactedAll, perCall] = rates([
  { strings: transcripts, work: (s) => Buffer.from(s, 'utf8').toString('utf8').length },
  { strings: transcripts, work: (s) => defaults.redact(s).text.length },
  { strings: transcripts, work: (s) => everything.redact(s).text.length },
  {
    strings: calls.map((_, i) => String(i)),
    work: (i) => {
      const call = calls[Number(i)]!;
      return defaults.redact(call.transcript).text.length + Object.keys(defaults.redactDeep(call.payload).value).length;
    },
  },
]) as [number, number, number, number];

const redacted = transcripts.filter((t) => defaults.redact(t).text !== t).length;
console.log(
  `${transcripts.length} transcripts of ${TRANSCRIPT_BYTES} bytes, ${redacted} of them with something redacted; ` +
    `${SECONDS}s per measure in ${PASSES} interleaved passes, the median shown`,
);
console.log(`bare copy (UTF-8 round trip):         ${bare.toFixed(0).padStart(8)} transcripts/s  ${(1e6 / bare).toFixed(1)} µs per 1 KB`);
console.log(
  `redact, default categories:           ${redactedDefault.toFixed(0).padStart(8)} transcripts/s  ${(1e6 / redactedDefault).toFixed(1)} µs per 1 KB  ` +
    `ratio ${(redactedDefault / bare).toFixed(3)} of bare`,
);
console.log(
  `redact, every category (with names):  ${redactedAll.toFixed(0).padStart(8)} transcripts/s  ${(1e6 / redactedAll).toFixed(1)} µs per 1 KB  ` +
    `ratio ${(redactedAll / bare).toFixed(3)} of bare`,
);
console.log(`per call (4 KB transcript + post-call payload through redactDeep, default categories): ${(1e6 / perCall).toFixed(1)} µs`);
if (sink === 0) console.log('');
