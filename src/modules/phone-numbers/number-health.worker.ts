import { createBackgroundLoop } from '../../background-loop.ts';
import type { Db } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import type { BackgroundWorker } from '../../workers.ts';
import { judgeNumbers } from './number-health.rule.ts';
import { applyRests, endRests, noJit, saveFigures, settingsOf, tryJudgeLock, windowFigures } from './number-health.repository.ts';


/**
 * One round in one transaction, under the judgement's advisory lock (a process that finds it
 * taken skips: the other is judging the same figures): ends the rests whose time is over, reads
 * the window's figures, decides (number-health.rule.ts), writes every number's figures and the
 * new rests, each rest and each end audited once. Answers the rests made and ended.
 */
export async function judgeNumberHealth(db: Db, now: Date): Promise<{ rested: number; ended: number } | null> {
  return db.transaction().execute(async (trx) => {
    if (!(await tryJudgeLock(trx))) return null;
    await noJit(trx);
    const ended = await endRests(trx, { now, code: 'rest_over', audit: true });
    const { accounts, numbers } = await windowFigures(trx, now);
    const settings = await settingsOf(trx, [...accounts.keys()]);
    const verdicts = [...numbers].flatMap(([owner, list]) => judgeNumbers(list, accounts.get(owner)!, settings.get(owner)!, now));
    await saveFigures(trx, [...numbers].flatMap(([owner, list]) => list.map((number) => ({ number, account: accounts.get(owner)! }))), now);
    const rested = await applyRests(trx, verdicts, now);
    return { rested: rested.length, ended: ended.length };
  });
}

/**
 * Judges every caller-ID number every NUMBER_HEALTH_EVERY_MS (5 minutes): a spam label shows over
 * hours and days, and a rest lasts hours, so that is prompt enough for one statement of figures.
 * The judgement is written to phone_number_health, which every process's dialer reads; a process
 * with 0 never judges (its loop does nothing), another does.
 */
export function createNumberHealthWorker(deps: Deps): BackgroundWorker {
  const every = deps.config.NUMBER_HEALTH_EVERY_MS;
  if (every === 0) return { name: 'number-health', start() {}, stop: async () => {} };
  return createBackgroundLoop({
    name: 'number-health',
    log: deps.log,
    tickMs: every,
    failure: { level: 'warn' },
    round: async () => void (await judgeNumberHealth(deps.db, deps.clock.now())),
  });
}
