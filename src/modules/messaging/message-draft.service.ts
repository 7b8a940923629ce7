import type { Deps } from '../../deps.ts';
import { unprocessable } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import { requireContact } from '../contacts/contacts.service.ts';
import { composeText } from './compose-text.ts';
import { textTemplateProblem } from './text-template.ts';
import { findCallOf, latestCallOf } from './messages.repository.ts';
import type { DraftRequest } from './messages.schemas.ts';

/**
 * A text written as the sender would write it, and not sent: the composer's "Draft with AI" and
 * the campaign form's preview (with its unsaved prompt and template). Reads only.
 */
export async function draftText(args: { deps: Pick<Deps, 'db' | 'config'>; principal: Principal; input: DraftRequest }) {
  const { db } = args.deps;
  const { input } = args;
  if (typeof input.template === 'string') {
    const problem = textTemplateProblem(input.template);
    if (problem) throw unprocessable(['body', 'template'], problem);
  }
  const contact = await requireContact(db, args.principal, input.contact_id);
  let callId: number | null = null;
  if (input.call_id != null) {
    const call = await findCallOf(db, input.call_id);
    // Another contact's call (of any account) is the same mistake as none: it names nothing here.
    if (!call || call.contact_id !== contact.id) throw unprocessable(['body', 'call_id'], `call ${input.call_id} is not a call of contact ${contact.id}`);
    callId = call.id;
  } else {
    callId = (await latestCallOf(db, contact.id))?.id ?? null;
  }
  const written = await composeText(args.deps, {
    contactId: contact.id,
    callId,
    purpose: input.purpose ?? 'manual',
    replyToMessageId: null,
    ...(input.prompt !== undefined ? { promptOverride: input.prompt } : {}),
    ...(input.template !== undefined ? { templateOverride: input.template } : {}),
  });
  return { message: written.body, by: written.by, segments: written.segments, encoding: written.encoding };
}
