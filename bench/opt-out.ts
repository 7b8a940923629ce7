/**
 * Opt-out detector measurement (issue: suppress numbers that ask not to be called):
 * precision and recall of the offline detector on the labelled transcript endings in
 * test/fixtures/opt-out/labelled.jsonl, per language and overall, with the ids of the
 * false positives and false negatives, and the time per transcript ending.
 *
 * The detector's phrasings were written with labelled.jsonl in view, so its figures are
 * in-sample. held-out.jsonl was written after the detector and is never used to tune it:
 * its figures are the honest estimate of how the detector does on phrasings it has not
 * seen. Add a miss found there to labelled.jsonl before fixing it, and write new held-out
 * endings.
 *
 * Held-out history (each round measured once, then moved into labelled.jsonl and fixed):
 *   round 1 (116): en recall 0.50 precision 1.00, es 0.83/1.00, fr 0.67/0.80
 *   round 2  (92): en 0.79/1.00, es 0.90/1.00, fr 0.90/0.90
 *   round 3  (73): en 0.84/1.00, es 1.00/1.00, fr 0.71/1.00
 *   round 4  (73): en 0.79/0.95, es 1.00/1.00, fr 0.71/1.00  <- the current held-out.jsonl
 * So on phrasings it has not seen, English recall sits near 0.8, short of the 0.95 goal the
 * labelled set shows; the LLM extractor is the path for the rest.
 *
 *   npm run measure:opt-out
 *
 * It is a measurement, not a test: it always exits 0. The unit test holds the English goal.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { detectOptOut, type TranscriptTurn } from '../src/modules/compliance/opt-out/opt-out-detector.ts';

export type LabelledEnding = { id: string; language: string; turns: TranscriptTurn[]; optOut: boolean; note: string };

export type OptOutScore = {
  n: number;
  positives: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  falsePositives: string[];
  falseNegatives: string[];
};

export const labelledSetPath = fileURLToPath(new URL('../test/fixtures/opt-out/labelled.jsonl', import.meta.url));
const heldOutSetPath = fileURLToPath(new URL('../test/fixtures/opt-out/held-out.jsonl', import.meta.url));

export function loadLabelledSet(path = labelledSetPath): LabelledEnding[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LabelledEnding);
}

/** Runs the detector with each ending's own language tag, as the call pipeline does. */
export function scoreOptOut(endings: readonly LabelledEnding[]): OptOutScore {
  const score: OptOutScore = {
    n: endings.length,
    positives: 0,
    tp: 0,
    fp: 0,
    fn: 0,
    precision: 0,
    recall: 0,
    falsePositives: [],
    falseNegatives: [],
  };
  for (const ending of endings) {
    const predicted = detectOptOut(ending.turns, ending.language).optOut;
    if (ending.optOut) score.positives++;
    if (predicted && ending.optOut) score.tp++;
    if (predicted && !ending.optOut) {
      score.fp++;
      score.falsePositives.push(ending.id);
    }
    if (!predicted && ending.optOut) {
      score.fn++;
      score.falseNegatives.push(ending.id);
    }
  }
  score.precision = score.tp + score.fp === 0 ? 1 : score.tp / (score.tp + score.fp);
  score.recall = score.positives === 0 ? 1 : score.tp / score.positives;
  return score;
}

function report(label: string, score: OptOutScore): void {
  console.log(
    `${label.padEnd(8)} n=${String(score.n).padStart(3)}  positives=${String(score.positives).padStart(3)}  ` +
      `TP=${String(score.tp).padStart(3)}  FP=${String(score.fp).padStart(2)}  FN=${String(score.fn).padStart(2)}  ` +
      `precision=${score.precision.toFixed(3)}  recall=${score.recall.toFixed(3)}`,
  );
  if (score.falsePositives.length > 0) console.log(`         false positives: ${score.falsePositives.join(' ')}`);
  if (score.falseNegatives.length > 0) console.log(`         false negatives: ${score.falseNegatives.join(' ')}`);
}

/** Median time per ending over repeated passes, with and without the language tag. */
function timePerEnding(endings: readonly LabelledEnding[], withLanguage: boolean): number {
  const passes: number[] = [];
  for (let pass = 0; pass < 25; pass++) {
    const start = process.hrtime.bigint();
    for (const ending of endings) detectOptOut(ending.turns, withLanguage ? ending.language : null);
    passes.push(Number(process.hrtime.bigint() - start) / 1000 / endings.length);
  }
  passes.sort((a, b) => a - b);
  return passes[Math.floor(passes.length / 2)]!;
}

function reportSet(title: string, endings: readonly LabelledEnding[]): void {
  console.log(title);
  const languages = [...new Set(endings.map((ending) => ending.language))];
  for (const language of languages) report(language, scoreOptOut(endings.filter((e) => e.language === language)));
  report('overall', scoreOptOut(endings));
}

function main(): void {
  const endings = loadLabelledSet();
  reportSet('labelled.jsonl (in-sample: the phrasings were written with it in view)', endings);
  if (existsSync(heldOutSetPath)) {
    reportSet('held-out.jsonl (written after the detector, never tuned on)', loadLabelledSet(heldOutSetPath));
  } else {
    console.log('held-out.jsonl: none yet (write fresh endings there before the next round of fixes)');
  }
  console.log(
    `time per ending (median of 25 passes): ${timePerEnding(endings, true).toFixed(1)} µs with its language tag, ` +
      `${timePerEnding(endings, false).toFixed(1)} µs without (all languages tried)`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (error) {
    console.error(error);
  }
  process.exitCode = 0;
}
