/**
 * SMS segment counting, the service's own (src/messaging/segments.ts, a module without imports):
 * the composer shows what a text will cost with the same rules the sender bills by, so the two
 * cannot disagree.
 */
export { countSegments, segmentBudget, type SegmentCount } from '../../../src/messaging/segments.ts';
