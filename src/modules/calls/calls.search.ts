import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/connection.ts';

/**
 * The call_data filter (migration 0021 has the index). A call matches when its call data has
 * a word starting with each word of the text and, unless the text is one plain word, contains
 * the text itself (case-insensitive, as before). The words come from call_search_words, the
 * function that fills calls.search_words, so the text and the calls are split alike.
 */
export interface CallDataSearch {
  text: string;
  /** The text's words as the index holds them; empty when it has none (only punctuation). */
  words: string[];
}

export async function prepareCallDataSearch(db: Db, text: string): Promise<CallDataSearch> {
  const { rows } = await sql<{ words: string[] | null }>`SELECT tsvector_to_array(call_search_words(${text})) AS words`.execute(db);
  return { text, words: rows[0]?.words ?? [] };
}

/** LIKE treats %, _ and the escape character \ specially; a search is for the literal text. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A tsquery of word prefixes, each quoted (tsquery syntax) so no word is read as an operator. */
const prefixQuery = (words: string[]) => words.map((w) => `'${w.replace(/\\/g, '\\\\').replace(/'/g, "''")}':*`).join(' & ');

/** Words shorter than this match too many index entries as a prefix to lead the lookup ('pc' of pc-1f3a...). */
const LEADING_WORD_MIN = 3;

export function callDataMatches(search: CallDataSearch): RawBuilder<SqlBool> {
  const substring = sql<SqlBool>`calls.call_data::text ILIKE '%' || ${escapeLike(search.text)} || '%'`;
  // Only punctuation: no word to look up, the substring alone decides (the statement timeout bounds it).
  if (search.words.length === 0) return substring;
  const all = sql<SqlBool>`calls.search_words @@ to_tsquery('simple', ${prefixQuery(search.words)})`;
  // One plain word: every call with a word starting with it contains it, no second test needed.
  if (search.words.length === 1 && search.words[0] === search.text.toLowerCase()) return all;
  // The index is asked only for the longer words: a one- or two-letter prefix (pc of a provider
  // id pc-1f3a...) expands to every word starting with it, millions at scale (179 ms for one
  // call at 2M calls). Every word and the substring are still tested on each candidate.
  const long = search.words.filter((w) => w.length >= LEADING_WORD_MIN);
  const leading = long.length > 0 && long.length < search.words.length
    ? sql<SqlBool>`calls.search_words @@ to_tsquery('simple', ${prefixQuery(long)})`
    : all;
  const rest = leading === all ? substring : sql<SqlBool>`${all} AND ${substring}`;
  // coalesce() hides the per-row tests from the planner's estimate (it would guess 0.5% of the
  // word matches, then read all of them by index and sort): it estimates it at one half, so a
  // text of common words walks the id order and stops at the page.
  return sql<SqlBool>`(${leading} AND coalesce(${rest}, false))`;
}
