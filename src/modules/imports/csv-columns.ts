/** A CSV data column: its header as written in the file and its key in contact_data. */
export interface CsvColumn {
  header: string;
  key: string;
}

// Letters and digits of any script, and underscores, survive; every other run becomes one `_`.
const SEPARATORS = /[^\p{L}\p{N}_]+/u;

/**
 * The contact_data key of a header: lower case, words joined by `_` (`' First Name '` ->
 * `first_name`, `E-mail` -> `e_mail`). Punctuation goes too, not only spaces: placeholders
 * (`{{contact_data.key}}`) accept letters, digits and `_` alone, so `e-mail` was unreachable.
 * A header with nothing left (empty, or only punctuation) becomes `column_<1-based position>`.
 */
export function headerKey(header: string, position: number): string {
  return normaliseHeader(header) || `column_${position + 1}`;
}

/** The normalised words of a header; empty when it has none. */
export const normaliseHeader = (text: string) => text.toLowerCase().split(SEPARATORS).filter(Boolean).join('_');

/**
 * Keys for the data columns (indexes into the header), in header order. Headers that
 * normalise to the same key never overwrite each other: the first keeps the key, each later
 * one gets the first free `_2`, `_3`, ... suffix. A suffix never takes a key another header
 * normalises to by itself (`Name, name, Name_2` -> `name`, `name_3`, `name_2`).
 */
export function mapColumns(header: string[], dataIndexes: number[]): (CsvColumn & { index: number })[] {
  const wanted = dataIndexes.map((index) => ({ index, header: header[index] ?? '', key: headerKey(header[index] ?? '', index) }));
  const taken = new Set(wanted.map((c) => c.key));
  const first = new Set<string>();
  return wanted.map((c) => {
    if (!first.has(c.key)) {
      first.add(c.key);
      return c;
    }
    let n = 2;
    while (taken.has(`${c.key}_${n}`)) n++;
    const key = `${c.key}_${n}`;
    taken.add(key);
    return { ...c, key };
  });
}
