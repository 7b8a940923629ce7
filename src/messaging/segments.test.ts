import { describe, expect, it } from 'vitest';
import { countSegments, segmentBudget } from './segments.ts';

describe('SMS segments', () => {
  it('counts GSM-7: 160 in one segment, 153 per segment beyond', () => {
    expect(countSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(countSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(countSegments('a'.repeat(306)).segments).toBe(2);
    expect(countSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('counts the extension table\'s characters twice (€, brackets, ^)', () => {
    expect(countSegments('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(countSegments('€'.repeat(81))).toMatchObject({ units: 162, segments: 2 });
  });

  it('falls to UCS-2 for one character outside GSM-7: 70 in one, 67 per segment, an emoji two units', () => {
    expect(countSegments('a'.repeat(69) + 'ł')).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(countSegments('a'.repeat(70) + 'ł')).toMatchObject({ encoding: 'UCS-2', segments: 2 });
    expect(countSegments('😀')).toEqual({ encoding: 'UCS-2', units: 2, segments: 1 });
    expect(countSegments('Привет')).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    // Accented letters of GSM-7 stay GSM-7; others do not.
    expect(countSegments('Café à Málaga').encoding).toBe('UCS-2');
    expect(countSegments('Café à Paris').encoding).toBe('GSM-7');
    expect(segmentBudget('GSM-7', 2)).toBe(306);
    expect(segmentBudget('UCS-2', 1)).toBe(70);
  });
});
