import { createHash } from 'node:crypto';

/**
 * Which variant a contact gets: a stable hash of (experiment id, contact id) mapped onto the
 * variants' cumulative weights. It depends on nothing else, so a contact keeps its variant across
 * retries, rounds, processes and restarts, and no assignment needs storing before the call.
 * SHA-256 rather than a short hash: its first 32 bits are uniform for consecutive ids too.
 */

export interface WeightedVariant {
  id: number;
  weight: number;
}

/** A number in [0, 1) fixed for this experiment and contact. */
export function contactUnit(experimentId: number, contactId: number): number {
  const digest = createHash('sha256').update(`experiment:${experimentId}:contact:${contactId}`).digest();
  return digest.readUInt32BE(0) / 2 ** 32;
}

/** The variant (in the order given, the control first) whose share of the weights holds the contact's unit. */
export function assignVariant<V extends WeightedVariant>(experimentId: number, contactId: number, variants: readonly V[]): V {
  if (variants.length === 0) throw new Error('an experiment has at least one variant');
  const total = variants.reduce((s, v) => s + v.weight, 0);
  const point = contactUnit(experimentId, contactId) * total;
  let upTo = 0;
  for (const v of variants) {
    upTo += v.weight;
    if (point < upTo) return v;
  }
  return variants.at(-1)!;
}
