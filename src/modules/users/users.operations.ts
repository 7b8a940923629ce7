import { Type } from 'typebox';
import { Detail, ErrorResponses } from '../../http/schemas.ts';
import { Me, PasswordChange, User, UserCreate } from './users.schemas.ts';

/** The OpenAPI description of each users operation; users.routes.ts registers them. */

const tags = ['users'];

export const ReadCaller = {
  operationId: 'read_caller',
  tags,
  summary: 'The calling account or sub-user',
  response: { 200: Me, 401: Detail },
} as const;

export const CreateAccount = {
  operationId: 'create_account',
  tags,
  summary: 'Create an account (superuser only)',
  body: UserCreate,
  response: { 200: User, ...ErrorResponses, 409: Detail },
} as const;

export const ChangePassword = {
  operationId: 'change_password',
  tags,
  summary: 'Change the caller\'s own password',
  description:
    'For the account or sub-user the credential names. `current_password` must be the password it has now, else 422 at ' +
    '`["body", "current_password"]` and nothing changes (a wrong one counts as a failed login: the login\'s throttle and 429 apply). ' +
    '`new_password`: 8 to 128 characters, as everywhere. Every dashboard session and bearer token of that login ends (see Sub-users: the ' +
    'credential version); a request made with the dashboard session cookie gets a fresh session in its place (a new `vc_session` cookie), so ' +
    'that browser stays signed in. API keys belong to the account and stay valid. 204.',
  body: PasswordChange,
  response: { 204: Type.Null({ description: 'Changed' }), ...ErrorResponses, 429: Detail },
} as const;
