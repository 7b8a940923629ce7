import { Detail, ErrorResponses } from '../../http/schemas.ts';
import { Me, User, UserCreate } from './users.schemas.ts';

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
