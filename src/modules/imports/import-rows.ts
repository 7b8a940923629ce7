import { contactDataTooLarge } from '../../shared/contact-data-limit.ts';
import { storableExcerpt, unstorable } from '../../http/json-body.ts';
import { normalisePhone } from '../../shared/phone.ts';
import { timezoneForPhone } from '../../shared/phone-timezones.ts';
import { isValidTimeZone, unknownTimeZone } from '../../shared/timezone.ts';
import type { ImportError, StoredRow } from './imports.repository.ts';

export interface PreparedRow {
  index: number;
  input: string;
  campaignId: number;
  phone: string;
  status: string;
  contactData: unknown;
  timezone: string | null;
}

export interface PreparedChunk {
  seq: number;
  rowCount: number;
  rows: PreparedRow[];
  failed: ImportError[];
  skipped: ImportError[];
}

/**
 * The CPU part of importing a chunk, done outside any transaction: normalise phones to
 * E.164, check time zones, and drop repeats inside the chunk (the first row wins).
 * Repeats across chunks and of existing contacts are caught by the unique key.
 * A row without a zone gets its number's, as POST /contacts gives it (an explicit zone wins).
 */
export async function prepareChunk(chunk: { seq: number; first_index: number; rows: unknown }, defaultCountry: string): Promise<PreparedChunk> {
  const stored = chunk.rows as StoredRow[];
  const rows: PreparedRow[] = [];
  const failed: ImportError[] = [];
  const skipped: ImportError[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < stored.length; i++) {
    const [raw, campaignId, status, data, timezone] = stored[i]!;
    const index = chunk.first_index + i;
    const phone = normalisePhone(String(raw ?? ''), defaultCountry);
    // What errors show of the cell: a NUL or a huge cell stored in the task's errors failed the whole task.
    const input = storableExcerpt(String(raw ?? ''));
    if (!phone) {
      failed.push({ index, phone_number: input, reason: 'not a valid phone number' });
      continue;
    }
    if (timezone !== null && !isValidTimeZone(timezone)) {
      failed.push({ index, phone_number: input, reason: unknownTimeZone(storableExcerpt(timezone)) });
      continue;
    }
    // Text PostgreSQL cannot store fails this row alone (it failed the chunk, and the task).
    const bad = unstorable(data) ?? (typeof status === 'string' ? unstorable(status) : null);
    if (bad) {
      failed.push({ index, phone_number: input, reason: `contact data at ${bad.loc.join('.') || 'top level'}: ${bad.msg}` });
      continue;
    }
    // A CSV row's columns (or a bulk item stored before the limit) over the contact_data limit fail this row alone.
    const tooLarge = contactDataTooLarge(data);
    if (tooLarge) {
      failed.push({ index, phone_number: input, reason: tooLarge });
      continue;
    }
    const key = `${campaignId}|${phone.e164}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      // `index` counts from 0 (the API documents it so); a sentence names rows as a person counts them, from 1.
      skipped.push({ index, phone_number: input, reason: `duplicate of row ${earlier + 1}` });
      continue;
    }
    seen.set(key, index);
    rows.push({
      index, input, campaignId, phone: phone.e164, status, contactData: data,
      timezone: timezone ?? (await timezoneForPhone(phone.e164)),
    });
  }
  return { seq: chunk.seq, rowCount: stored.length, rows, failed, skipped };
}
