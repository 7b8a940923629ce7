import { Type } from 'typebox';
import type { App } from '../../../app.ts';
import { HttpError } from '../../../http/errors.ts';
import { ErrorResponses } from '../../../http/schemas.ts';
import { requirePhone } from '../../../shared/phone.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordAudit } from '../../audit/audit.service.ts';
import { erasePerson } from './person-erasure.ts';
import { exportPerson } from './person-export.ts';
import type { Person } from './person-selection.ts';

/**
 * POST /api/v1/privacy/exports and /erasures: a person's right of access and right to be
 * forgotten, by phone number (and e-mail), across every campaign of the account. Owner only:
 * they reach every campaign, granted or not. The number travels in the body, not the URL (URLs
 * end up in logs).
 */
const tags = ['privacy'];
const PersonBody = Type.Object({
  phone_number: Type.String({ minLength: 1, maxLength: 64, description: 'the person\'s number, any common format (read in DEFAULT_COUNTRY without +)' }),
  email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'the person\'s e-mail, matched against contacts\' contact_data.email (case-insensitive)' })),
}, { additionalProperties: false });

const SELECTION =
  'The person is found by phone number (and e-mail when given): the account\'s contacts with that number or e-mail in any campaign, the calls and texts ' +
  'of those contacts and any other call or text to their numbers, the webhook deliveries that told of them, the texts queued for them, our agent\'s ' +
  'conversations, and their do-not-call entries. Owner only (a sub-user is 403: these reach every campaign).';

const Counts = Type.Object({
  contacts: Type.Integer(), calls: Type.Integer(), messages: Type.Integer(), message_jobs: Type.Integer(), webhook_deliveries: Type.Integer(), suppressions: Type.Integer(),
});

function personOf(app: App, principal: Principal, body: { phone_number: string; email?: string }): Person {
  if (principal.kind !== 'user') throw new HttpError(403, 'Only the account owner may export or erase a person\'s data: it reaches every campaign of the account');
  const phone = requirePhone(body.phone_number, app.deps.config.DEFAULT_COUNTRY, ['body', 'phone_number']).e164;
  return { ownerId: principal.ownerId, phone, email: body.email?.trim() || null };
}

export async function privacyPersonRoutes(app: App) {
  const { db, clock } = app.deps;
  app.post('/exports', {
    schema: {
      tags, operationId: 'export_person', summary: 'Export everything the account holds about one person (right of access; owner only, audited)',
      description: `${SELECTION} The answer is one JSON document: subject, exported_at, counts, and the rows whole (contacts, calls, agent_conversations, messages, ` +
        'message_jobs, webhook_deliveries, suppressions). Audited (privacy.person_exported, with the counts, not the number).',
      body: PersonBody, response: { 200: Type.Object({ counts: Counts }, { additionalProperties: true }), ...ErrorResponses },
    },
  }, async (request) => {
    const person = personOf(app, request.principal, request.body);
    const document = await exportPerson(db, person, clock.now());
    await recordAudit(db, { principal: request.principal, request, kind: 'privacy.person_exported', subject: { type: 'account', id: person.ownerId }, details: { counts: document.counts } });
    return document;
  });

  app.post('/erasures', {
    schema: {
      tags, operationId: 'erase_person', summary: 'Erase one person from the account (right to be forgotten; owner only, audited)',
      description: `${SELECTION} In one transaction: the contacts keep their place (calls and analytics count them) but lose their data, their number becomes ` +
        '`erased:<salted hash>` and their status do_not_disturb; calls lose their transcript, analysis, recording link, copy of the contact and the person\'s number ' +
        '(personal_data_purged_at set); agent conversations, texts and webhook deliveries lose their words and bodies; texts not yet sent are cancelled; the live ' +
        'stream\'s events of those calls go; audit details and import rows that wrote the number or e-mail get `[erased]`. The law\'s part stays, unreadable: the ' +
        'do-not-call list keeps each of the person\'s numbers as its salted hash (added when absent), which still blocks every call and text to the number. ' +
        '409 while a call with the person is in progress. The answer is the report: counts of what was erased, and the mark the number became. Audited ' +
        '(privacy.person_erased, with the counts and the mark, not the number). Erasing again finds nothing more (the contacts no longer carry the number).',
      body: PersonBody,
      response: {
        200: Type.Object({
          erased: Type.Object({ ...Counts.properties, suppressions_added: Type.Integer(), audit_events: Type.Integer(), import_chunks: Type.Integer() }),
          mark: Type.String({ description: 'what the number became on the do-not-call list and the contacts: erased:<salted hash>' }),
          dialling_blocked: Type.Boolean({ description: 'always true: the number stays on the do-not-call list as its mark' }),
        }),
        ...ErrorResponses,
      },
    },
  }, async (request) => {
    const person = personOf(app, request.principal, request.body);
    return db.transaction().execute(async (trx) => {
      const { erased, mark } = await erasePerson(trx, person, { userId: request.principal.kind === 'user' ? request.principal.userId : null }, clock.now());
      await recordAudit(trx, { principal: request.principal, request, kind: 'privacy.person_erased', subject: { type: 'account', id: person.ownerId }, details: { mark, erased } });
      return { erased, mark, dialling_blocked: true };
    });
  });
}
