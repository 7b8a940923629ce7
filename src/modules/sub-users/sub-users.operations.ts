import { Detail, ErrorResponses } from '../../http/schemas.ts';
import {
  Deleted,
  GrantList,
  GrantParams,
  GrantSet,
  SUB_USER_RULES,
  SubUser,
  SubUserCreate,
  SubUserList,
  SubUserListQuery,
  SubUserParams,
  SubUserUpdate,
} from './sub-users.schemas.ts';

/** The OpenAPI description of each sub-users operation; sub-users.routes.ts registers them. */

const tags = ['sub-users'];
const OWNER_ONLY = 'Account owners only: a sub-user calling this gets 403. Another account\'s sub-user: 403; unknown id: 404.';
const describe = (text: string) => `${text}\n\n${OWNER_ONLY}\n\n${SUB_USER_RULES}`;
const GRANT_CHECK = 'Every campaign must belong to the caller: an unknown campaign id is 404, another account\'s campaign is 403, and on any error nothing changes.';

export const ListSubUsers = {
  operationId: 'list_sub_users',
  tags,
  summary: 'List sub-users',
  description: describe('The account\'s sub-users, newest first; `count` is the total, not the page size.'),
  querystring: SubUserListQuery,
  response: { 200: SubUserList, ...ErrorResponses },
} as const;

export const CreateSubUser = {
  operationId: 'create_sub_user',
  tags,
  summary: 'Create a sub-user',
  description: describe(
    'The username is unique service-wide and the e-mail unique among sub-users, both compared case-insensitively; neither may equal an existing account e-mail or another sub-user\'s username or e-mail (login tries accounts first): 409. The password is stored as an argon2id hash and never returned. A new sub-user has no campaigns; grant them with PUT /api/v1/sub-users/{id}/campaigns.',
  ),
  body: SubUserCreate,
  response: { 200: SubUser, ...ErrorResponses, 409: Detail },
} as const;

export const ReadSubUser = {
  operationId: 'read_sub_user',
  tags,
  summary: 'Read a sub-user',
  description: describe('The sub-user with the ids of its granted campaigns.'),
  params: SubUserParams,
  response: { 200: SubUser, ...ErrorResponses },
} as const;

export const UpdateSubUser = {
  operationId: 'update_sub_user',
  tags,
  summary: 'Update a sub-user',
  description: describe(
    'Changes full_name, email, password and is_active; omitted fields stay as they are and the username cannot change. A new password or is_active false ends every dashboard session and bearer token the sub-user holds (401 on its very next request), for good: setting is_active back to true brings none of them back, the sub-user signs in again. The caller\'s own session is the owner\'s and stays. A new e-mail follows the same uniqueness rule as on create (409).',
  ),
  params: SubUserParams,
  body: SubUserUpdate,
  response: { 200: SubUser, ...ErrorResponses, 409: Detail },
} as const;

export const DeleteSubUser = {
  operationId: 'delete_sub_user',
  tags,
  summary: 'Delete a sub-user',
  description: describe('Removes the sub-user and its grants; its tokens fail with 401 on the very next request. Prompt-history entries it made keep their content but lose the link to it.'),
  params: SubUserParams,
  response: { 200: Deleted, ...ErrorResponses },
} as const;

export const ListGrants = {
  operationId: 'list_grants',
  tags,
  summary: 'List the campaigns granted to a sub-user',
  description: describe('Ids and titles of the granted campaigns, ascending by id; `count` is their number.'),
  params: SubUserParams,
  response: { 200: GrantList, ...ErrorResponses },
} as const;

export const ReplaceGrants = {
  operationId: 'replace_grants',
  tags,
  summary: 'Replace the campaigns granted to a sub-user',
  description: describe(`\`campaign_ids\` becomes the complete grant set ([] revokes every grant). ${GRANT_CHECK} Answers the new grant list.`),
  params: SubUserParams,
  body: GrantSet,
  response: { 200: GrantList, ...ErrorResponses },
} as const;

export const GrantCampaign = {
  operationId: 'grant_campaign',
  tags,
  summary: 'Grant one campaign to a sub-user',
  description: describe(`Idempotent: granting a campaign already granted changes nothing. ${GRANT_CHECK} Answers the new grant list.`),
  params: GrantParams,
  response: { 200: GrantList, ...ErrorResponses },
} as const;

export const RevokeCampaign = {
  operationId: 'revoke_campaign',
  tags,
  summary: 'Revoke one campaign from a sub-user',
  description: describe(`Idempotent: revoking a campaign that is not granted changes nothing. ${GRANT_CHECK} Answers the new grant list.`),
  params: GrantParams,
  response: { 200: GrantList, ...ErrorResponses },
} as const;
