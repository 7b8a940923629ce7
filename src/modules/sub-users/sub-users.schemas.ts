import { Type, type Static } from 'typebox';
import { DateTime, Id, IdParams, Limit, Nullable, Skip } from '../../http/schemas.ts';

/**
 * What a sub-user may do, stated once for the OpenAPI descriptions and kept in step
 * with docs/api-conventions.md.
 */
export const SUB_USER_RULES = `A sub-user works inside its owner's account, limited to the campaigns granted to it:
- it sees and edits only the granted campaigns, their contacts and their calls (lists, filters and counts never include anything else; any other campaign, contact or call answers 403);
- it cannot create campaigns, manage API keys, sub-users, phone numbers or voice connections (403);
- it reads the assistants its granted campaigns use, and cannot create, change or delete assistants (403);
- a change it makes to a campaign's prompt (campaign_data.prompt) is recorded as a pending prompt-history entry and is not used by calls until the owner approves it.
A sub-user logs in with POST /api/v1/login/access-token using its username or e-mail. Deactivating or deleting it makes its token fail (401) on the very next request.`;

const Username = Type.String({
  minLength: 3,
  maxLength: 64,
  pattern: '^[A-Za-z0-9._@-]+$',
  description: '3 to 64 characters of A-Z a-z 0-9 . _ @ -; unique service-wide, compared case-insensitively',
});
const Email = Type.String({ format: 'email', maxLength: 254, description: 'unique among sub-users, compared case-insensitively' });
const Password = Type.String({ minLength: 8, maxLength: 128, description: 'stored as an argon2id hash, never returned' });
const FullName = Type.String({ maxLength: 255 });

export const SubUser = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  full_name: Nullable(Type.String()),
  email: Nullable(Type.String()),
  is_active: Type.Boolean(),
  created_at: DateTime,
  campaign_ids: Type.Array(Type.Integer(), { description: 'ids of the campaigns granted to this sub-user, ascending' }),
});
export type SubUser = Static<typeof SubUser>;

export const SubUserList = Type.Object({
  data: Type.Array(SubUser),
  count: Type.Integer({ description: 'total number of the account\'s sub-users, not the page size' }),
});

export const SubUserCreate = Type.Object({
  username: Username,
  password: Password,
  full_name: Type.Optional(Nullable(FullName)),
  email: Type.Optional(Nullable(Email)),
});
export type SubUserCreate = Static<typeof SubUserCreate>;

export const SubUserUpdate = Type.Object({
  full_name: Type.Optional(Nullable(FullName)),
  email: Type.Optional(Nullable(Email)),
  password: Type.Optional(Password),
  is_active: Type.Optional(Type.Boolean({ description: 'false ends the sub-user\'s sessions and tokens at once and for good (true later does not revive them)' })),
});
export type SubUserUpdate = Static<typeof SubUserUpdate>;

export const SubUserListQuery = Type.Object({ skip: Skip, limit: Limit(100) });

export const SubUserParams = IdParams;
export const GrantParams = Type.Object({ id: Id, campaign_id: Id });

export const GrantedCampaign = Type.Object({ id: Type.Integer(), title: Type.String() });
export const GrantList = Type.Object({
  data: Type.Array(GrantedCampaign),
  count: Type.Integer(),
});

export const GrantSet = Type.Object({
  campaign_ids: Type.Array(Id, { maxItems: 10000, description: 'the complete set of granted campaigns; duplicates are ignored, [] revokes every grant' }),
});

export const Deleted = Type.Object({ message: Type.String() });
