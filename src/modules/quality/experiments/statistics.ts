import { errorFunction } from 'simple-statistics';

/**
 * The confidence of an experiment's results (experiment-results.ts), pure functions:
 * - a two-proportion z-test of a variant's rate against the control's (pooled standard error,
 *   two-sided p-value): how surprising the difference would be if both had the same rate;
 * - each variant's probability to be best: with a uniform prior, a rate after s successes and
 *   f failures is Beta(1+s, 1+f); P(i best) = ∫ pdf_i(x) Π_{j≠i} cdf_j(x) dx, integrated on a
 *   fixed grid (deterministic: the same counts always give the same probabilities).
 */

export interface Proportion {
  successes: number;
  trials: number;
}

const normalCdf = (z: number) => 0.5 * (1 + errorFunction(z / Math.SQRT2));

/** z and the two-sided p-value of b's rate against a's; null when a side has no trials or both rates are 0 or 1. */
export function twoProportionZTest(a: Proportion, b: Proportion): { z: number; p_value: number } | null {
  if (a.trials === 0 || b.trials === 0) return null;
  const pa = a.successes / a.trials;
  const pb = b.successes / b.trials;
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  if (se === 0) return null;
  const z = (pb - pa) / se;
  return { z, p_value: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) };
}

/** Grid points of the integration: enough for a posterior as narrow as 10,000 trials (sd ≥ 0.005, ten points per sd). */
const GRID = 20_000;

/** Each proportion's probability to have the highest rate, in the order given (they sum to 1). */
export function probabilityToBeBest(arms: readonly Proportion[]): number[] {
  if (arms.length === 0) return [];
  if (arms.length === 1) return [1];
  const h = 1 / GRID;
  // Each posterior's density on the grid's midpoints, normalized to sum 1 (so no Beta function is needed), and its CDF.
  const pdfs = arms.map(({ successes, trials }) => {
    const a = 1 + successes;
    const b = 1 + trials - successes;
    const logs = new Float64Array(GRID);
    let max = -Infinity;
    for (let k = 0; k < GRID; k++) {
      const x = (k + 0.5) * h;
      logs[k] = (a - 1) * Math.log(x) + (b - 1) * Math.log(1 - x);
      if (logs[k]! > max) max = logs[k]!;
    }
    let sum = 0;
    for (let k = 0; k < GRID; k++) sum += logs[k] = Math.exp(logs[k]! - max);
    for (let k = 0; k < GRID; k++) logs[k]! /= sum;
    return logs;
  });
  // cdf_j at a midpoint: the mass below it plus half its own cell (ties in a cell split evenly).
  const cdfs = pdfs.map((pdf) => {
    const cdf = new Float64Array(GRID);
    let below = 0;
    for (let k = 0; k < GRID; k++) {
      cdf[k] = below + pdf[k]! / 2;
      below += pdf[k]!;
    }
    return cdf;
  });
  const best = arms.map((_, i) => {
    let p = 0;
    for (let k = 0; k < GRID; k++) {
      let term = pdfs[i]![k]!;
      if (term < 1e-300) continue;
      for (let j = 0; j < arms.length; j++) if (j !== i) term *= cdfs[j]![k]!;
      p += term;
    }
    return p;
  });
  const total = best.reduce((s, p) => s + p, 0);
  return best.map((p) => p / total);
}
