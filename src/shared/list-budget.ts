import { sql, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/connection.ts';

/**
 * The most bytes of JSON one list answer may hold. Free-form JSON columns (contact_data,
 * call_data with its transcript, a webhook delivery's payload and answer) make an item's size
 * open-ended, so a page of `limit` items is cut where the next item would pass this budget: a
 * page holds whole items, always at least one, and `count` (and the calls list's pagination)
 * stays the total. Without it four parallel pages of 1,000 large contacts took the service from
 * 1.5 to 2.5 GB (issue 23). 4 MiB holds a full page of 1,000 ordinary contacts (about 0.5 KB
 * each) and 60 contacts at the contact_data limit.
 */
export const LIST_MAX_BYTES = 4 * 1024 * 1024;

/** What the envelope around the items takes: `{"data":[`, `],"count":…,"pagination":{…}}`. */
const ENVELOPE_BYTES = 1024;

/** The sentence the OpenAPI descriptions and docs/api-conventions.md give clients. */
export const LIST_BUDGET_NOTE =
  `An answer holds at most ${LIST_MAX_BYTES / 1024 / 1024} MiB of JSON: when the items would pass that, the page ends at the last whole item that fits ` +
  '(always at least one), so data may hold fewer than limit items while more match; count stays the total. ' +
  'Fetch the next page with skip + the number of items received.';

/**
 * The page query (its rows in id-descending order) cut to the byte budget in the database, so
 * rows past it never reach the service. An item is measured as its row rendered as JSON by the
 * database, which spells timestamps and numbers at least as long as the API does and puts
 * spaces in nested JSON, so the API's rendering of the same fields is never larger. The page
 * must select only fields the answer shows (a hidden column only makes the measure larger).
 * Answers the page's rows, in order.
 */
export async function cutToByteBudget<Row extends { id: number }>(
  db: Db,
  page: SelectQueryBuilder<any, any, Row>,
  budget = LIST_MAX_BYTES - ENVELOPE_BYTES,
): Promise<Row[]> {
  const sized = db
    .selectFrom(page.as('p'))
    .selectAll('p')
    .select(sql<number>`octet_length(row_to_json(p)::text) + 1`.as('item_bytes')); // + 1: the comma
  const running = db
    .selectFrom(sized.as('s'))
    .selectAll('s')
    .select(sql<number>`sum(s.item_bytes) OVER (ORDER BY s.id DESC ROWS UNBOUNDED PRECEDING)`.as('bytes_through'));
  const rows = await db
    .selectFrom(running.as('r'))
    .selectAll('r')
    // The first item is kept whatever its size: a page is never empty while items match.
    .where(sql<boolean>`r.bytes_through <= ${budget} OR r.bytes_through = r.item_bytes`)
    .orderBy(sql`r.id`, 'desc')
    .execute();
  return (rows as Array<Record<string, unknown>>).map(({ item_bytes: _size, bytes_through: _through, ...row }) => row as unknown as Row);
}
