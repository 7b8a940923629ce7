/**
 * How many SMS segments a text costs. GSM-7 (the default alphabet) carries 160 characters in one
 * segment and 153 per segment when split; the extension table's characters take two septets.
 * A single character outside it makes the whole text UCS-2: 70 in one segment, 67 per segment.
 */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';
const BASIC = new Set(GSM_BASIC);
const EXTENDED = new Set(GSM_EXTENDED);

export interface SegmentCount {
  encoding: 'GSM-7' | 'UCS-2';
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
}

export function countSegments(text: string): SegmentCount {
  let septets = 0;
  for (const ch of text) {
    if (BASIC.has(ch)) septets += 1;
    else if (EXTENDED.has(ch)) septets += 2;
    else return ucs2(text);
  }
  return { encoding: 'GSM-7', units: septets, segments: septets === 0 ? 1 : septets <= 160 ? 1 : Math.ceil(septets / 153) };
}

function ucs2(text: string): SegmentCount {
  const units = text.length; // UTF-16 code units: an emoji is two
  return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}

/** The longest text that fits `segments` segments in the encoding `text` needs. */
export function segmentBudget(encoding: SegmentCount['encoding'], segments: number): number {
  if (encoding === 'GSM-7') return segments <= 1 ? 160 : 153 * segments;
  return segments <= 1 ? 70 : 67 * segments;
}
