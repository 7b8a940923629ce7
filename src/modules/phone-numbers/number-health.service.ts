import type { Db } from '../../db/connection.ts';
import type { Principal } from '../auth/principal.ts';
import { recordAudit, type AuditRequest } from '../audit/audit.service.ts';
import * as repo from './number-health.repository.ts';
import { answerRate, HEALTH_DEFAULTS, shortCallRate, type HealthSettings } from './number-health.rule.ts';
import type { NumberHealth, NumberHealthListQuery, NumberHealthSettings, NumberHealthSettingsUpdate } from './number-health.schemas.ts';
import { ownerOnly, requireVisible } from './phone-numbers.service.ts';

const KEYS = Object.keys(HEALTH_DEFAULTS) as (keyof HealthSettings)[];

type Row = Awaited<ReturnType<typeof repo.listNumberHealth>>['data'][number];

function present(r: Row, now: Date): NumberHealth {
  const f = { calls: r.calls ?? 0, answered: r.answered ?? 0, short_calls: r.short_calls ?? 0 };
  const rested = r.rested_until !== null && r.rested_until > now;
  return {
    phone_number_id: r.id, phone_number: r.phone_number, campaign_id: r.campaign_id, campaign_title: r.campaign_title ?? null,
    ...f, answer_rate: answerRate(f), short_call_rate: shortCallRate(f),
    state: rested ? 'rested' : r.judged_at ? 'healthy' : 'not_judged',
    rested_until: rested ? r.rested_until : null, rested_at: rested ? r.rested_at : null,
    rest_code: rested ? r.rest_code : null, rest_reason: rested ? r.rest_reason : null, judged_at: r.judged_at ?? null,
  };
}

export async function listNumberHealth({ db, principal, query, now }: { db: Db; principal: Principal; query: NumberHealthListQuery; now: Date }) {
  const [{ data, count }, account] = [
    await repo.listNumberHealth(db, principal, { skip: query.skip, limit: query.limit, campaignId: query.campaign_id }),
    await repo.latestAccountFigures(db, principal.ownerId),
  ];
  const f = { calls: account?.account_calls ?? 0, answered: account?.account_answered ?? 0, short_calls: account?.account_short_calls ?? 0 };
  return { account: { ...f, answer_rate: answerRate(f), short_call_rate: shortCallRate(f) }, data: data.map((r) => present(r, now)), count };
}

async function oneNumber(db: Db, principal: Principal, id: number, now: Date) {
  const { data } = await repo.listNumberHealth(db, principal, { skip: 0, limit: 1, id });
  return present(data[0]!, now);
}

export async function readHealthSettings(db: Db, principal: Principal): Promise<NumberHealthSettings> {
  const { settings, updated_at } = await repo.findHealthSettings(db, principal.ownerId);
  return { ...settings, updated_at };
}

/** Partial update by the owner; switching the rule off ends the account's rests in the same transaction. */
export async function updateHealthSettings(args: { db: Db; principal: Principal; input: NumberHealthSettingsUpdate; now: Date; request?: AuditRequest }) {
  const owner = ownerOnly(args.principal);
  return args.db.transaction().execute(async (trx) => {
    // Two updates of one account merge one after the other.
    await trx.selectFrom('users').select('id').where('id', '=', owner.ownerId).forNoKeyUpdate().execute();
    const { settings: current } = await repo.findHealthSettings(trx, owner.ownerId);
    const merged = Object.fromEntries(KEYS.map((k) => [k, args.input[k] ?? current[k]])) as HealthSettings;
    const changed = KEYS.filter((k) => merged[k] !== current[k]);
    if (changed.length > 0) {
      await repo.saveHealthSettings(trx, owner.ownerId, merged, args.now);
      await recordAudit(trx, {
        principal: owner, request: args.request, kind: 'account.number_health_changed', subject: { type: 'account', id: owner.ownerId },
        details: { changed, from: Object.fromEntries(changed.map((k) => [k, current[k]])), to: Object.fromEntries(changed.map((k) => [k, merged[k]])) },
      });
      if (current.enabled && !merged.enabled) await repo.endRests(trx, { now: args.now, code: 'disabled', ownerId: owner.ownerId, audit: true });
    }
    return readHealthSettings(trx, owner);
  });
}

/** The owner rests a number for the rule's rest_hours from now. */
export async function restNumber(args: { db: Db; principal: Principal; id: number; now: Date; request?: AuditRequest }) {
  const number = await requireVisible(args.db, args.principal, args.id);
  const owner = ownerOnly(args.principal);
  await args.db.transaction().execute(async (trx) => {
    const { settings } = await repo.findHealthSettings(trx, owner.ownerId);
    const until = new Date(args.now.getTime() + settings.rest_hours * 3_600_000);
    await repo.restByHand(trx, { id: number.id, owner_id: owner.ownerId }, until, 'rested by hand', args.now);
    await recordAudit(trx, { principal: owner, request: args.request, kind: 'phone_number.rested', subject: { type: 'phone_number', id: number.id }, details: { code: 'manual', rested_until: until.toISOString() } });
  });
  return oneNumber(args.db, owner, number.id, args.now);
}

/** The owner ends a number's rest; it is judged afresh on its calls from now. */
export async function unrestNumber(args: { db: Db; principal: Principal; id: number; now: Date; request?: AuditRequest }) {
  const number = await requireVisible(args.db, args.principal, args.id);
  const owner = ownerOnly(args.principal);
  await args.db.transaction().execute(async (trx) => {
    const ended = await repo.endRests(trx, { now: args.now, code: 'manual', phoneNumberId: number.id, audit: false });
    if (ended.length > 0) await recordAudit(trx, { principal: owner, request: args.request, kind: 'phone_number.unrested', subject: { type: 'phone_number', id: number.id }, details: { code: 'manual' } });
  });
  return oneNumber(args.db, owner, number.id, args.now);
}
