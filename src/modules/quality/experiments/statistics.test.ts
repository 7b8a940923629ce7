import { describe, expect, it } from 'vitest';
import { gammaln } from 'simple-statistics';
import { assignVariant, contactUnit } from './assignment.ts';
import { probabilityToBeBest, twoProportionZTest } from './statistics.ts';

/** The pure parts of experiments: the split per contact and the confidence figures, against hand computations. */

describe('the split per contact', () => {
  const variants = [{ id: 11, weight: 50 }, { id: 12, weight: 30 }, { id: 13, weight: 15 }, { id: 14, weight: 5 }];
  const total = variants.reduce((s, v) => s + v.weight, 0);

  it('is within 2 percentage points of the weights over 10,000 contacts, for several experiments', () => {
    for (const experimentId of [1, 2, 977]) {
      const counts = new Map<number, number>();
      for (let contact = 1; contact <= 10_000; contact++) {
        const v = assignVariant(experimentId, contact, variants);
        counts.set(v.id, (counts.get(v.id) ?? 0) + 1);
      }
      for (const v of variants) expect(Math.abs((counts.get(v.id) ?? 0) / 10_000 - v.weight / total)).toBeLessThan(0.02);
    }
  });

  it('gives a contact the same variant every time (retries, rounds), and differs between experiments', () => {
    let moved = 0;
    for (let contact = 1; contact <= 10_000; contact++) {
      const a = assignVariant(5, contact, variants).id;
      expect(assignVariant(5, contact, variants).id).toBe(a);
      expect(assignVariant(5, contact, [...variants]).id).toBe(a);
      if (assignVariant(6, contact, variants).id !== a) moved++;
    }
    // Another experiment reshuffles: about 1 - Σ share² = 62% of contacts land elsewhere.
    expect(moved / 10_000).toBeGreaterThan(0.55);
    expect(moved / 10_000).toBeLessThan(0.69);
  });

  it('maps a contact to a fixed unit in [0, 1) and honours a 1/1 split exactly by the unit', () => {
    const u = contactUnit(3, 42);
    expect(u).toBeGreaterThanOrEqual(0);
    expect(u).toBeLessThan(1);
    expect(assignVariant(3, 42, [{ id: 1, weight: 1 }, { id: 2, weight: 1 }]).id).toBe(u < 0.5 ? 1 : 2);
  });
});

describe('the confidence figures', () => {
  it('computes the two-proportion z-test as by hand', () => {
    // Control 100/1000, variant 130/1000: pooled p = 0.115, se = sqrt(0.115 * 0.885 * (2/1000)) = 0.0142671, z = 0.03 / se = 2.10274.
    const r = twoProportionZTest({ successes: 100, trials: 1000 }, { successes: 130, trials: 1000 })!;
    expect(r.z).toBeCloseTo(2.10274, 4);
    // Two-sided: 2 * (1 - Φ(2.10274)) = 0.035488 (normal table).
    expect(r.p_value).toBeCloseTo(0.03549, 4);
    expect(twoProportionZTest({ successes: 130, trials: 1000 }, { successes: 100, trials: 1000 })!.z).toBeCloseTo(-2.10274, 4);
    expect(twoProportionZTest({ successes: 0, trials: 0 }, { successes: 1, trials: 2 })).toBeNull();
    expect(twoProportionZTest({ successes: 0, trials: 10 }, { successes: 0, trials: 10 })).toBeNull();
  });

  // P(B > A) for Beta posteriors in closed form (Evan Miller's sum), for the integration to match.
  const lbeta = (a: number, b: number) => gammaln(a) + gammaln(b) - gammaln(a + b);
  const bBeatsA = (aA: number, bA: number, aB: number, bB: number) => {
    let t = 0;
    for (let i = 0; i < aB; i++) t += Math.exp(lbeta(aA + i, bA + bB) - Math.log(bB + i) - lbeta(1 + i, bB) - lbeta(aA, bA));
    return t;
  };

  it('matches the closed form of the probability to be best for two arms', () => {
    for (const [a, b] of [[[3, 10], [7, 10]], [[100, 1000], [130, 1000]], [[40, 400], [38, 380]], [[0, 5], [1, 5]]] as const) {
      const [pa, pb] = probabilityToBeBest([{ successes: a[0], trials: a[1] }, { successes: b[0], trials: b[1] }]);
      const exact = bBeatsA(1 + a[0], 1 + a[1] - a[0], 1 + b[0], 1 + b[1] - b[0]);
      expect(pb!).toBeCloseTo(exact, 5);
      expect(pa! + pb!).toBeCloseTo(1, 9);
    }
  });

  it('splits evenly between equal arms, is deterministic, and names the clearly better arm among several', () => {
    expect(probabilityToBeBest([{ successes: 0, trials: 0 }, { successes: 0, trials: 0 }, { successes: 0, trials: 0 }]).map((p) => p.toFixed(6))).toEqual(['0.333333', '0.333333', '0.333333']);
    const arms = [{ successes: 50, trials: 500 }, { successes: 52, trials: 500 }, { successes: 90, trials: 500 }, { successes: 49, trials: 500 }];
    const p = probabilityToBeBest(arms);
    expect(probabilityToBeBest(arms)).toEqual(p);
    expect(p[2]!).toBeGreaterThan(0.999);
    expect(p.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 9);
  });
});
