import { CSRF_HEADER, CSRF_HEADER_VALUE, SESSION_COOKIE } from '../auth/dashboard-session.ts';
import { SessionPrincipal } from '../auth/session.operations.ts';
import { Detail, ValidationDetail } from '../../http/schemas.ts';
import { OwnerCreate, SetupState } from './setup.schemas.ts';

/** The OpenAPI description of the first-run operations; setup.routes.ts registers them. */

const tags = ['setup'];

export const ReadSetup = {
  operationId: 'read_setup',
  tags,
  summary: 'Whether the service still needs its owner account',
  description: 'Answers `{needs_owner: true}` until the first account exists (made here, by `voice-campaigns users create` or by FIRST_USER_EMAIL/FIRST_USER_PASSWORD), then `false` for good. Needs no credentials: the sign-in page asks it.',
  security: [],
  response: { 200: SetupState },
} as const;

export const CreateOwner = {
  operationId: 'create_owner',
  tags,
  summary: 'Create the owner account on first run and sign the browser in',
  description:
    'Only while no account exists: creates it as a superuser (as FIRST_USER_* does) with the rules of `POST /api/v1/users` ' +
    '(an e-mail, a password of 8 to 128 characters, an optional name), starts a dashboard session exactly as `POST /api/v1/session` does ' +
    `(the \`${SESSION_COOKIE}\` cookie) and answers who signed in. Once any account exists: 409 and nothing changes; two requests at once ` +
    `create one account (the other gets 409). Like the sign-in it needs \`${CSRF_HEADER}: ${CSRF_HEADER_VALUE}\` (403 without it), so a cross-site form cannot claim a fresh service.`,
  security: [],
  body: OwnerCreate,
  response: { 200: SessionPrincipal, 403: Detail, 409: Detail, 422: ValidationDetail },
} as const;
