import { Type } from 'typebox';
import { UserCreate } from '../users/users.schemas.ts';

export const SetupState = Type.Object({
  needs_owner: Type.Boolean({ description: 'true while no account exists: the dashboard then offers to create the owner' }),
});

/** The owner's fields, with the same rules as POST /api/v1/users and `voice-campaigns users create`. */
export const OwnerCreate = Type.Object({
  email: UserCreate.properties.email,
  password: UserCreate.properties.password,
  full_name: UserCreate.properties.full_name,
});
