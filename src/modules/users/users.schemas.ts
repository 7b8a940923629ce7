import { Type } from 'typebox';
import { DateTime, Nullable } from '../../http/schemas.ts';

export const User = Type.Object({
  id: Type.Integer(),
  email: Type.String({ format: 'email' }),
  full_name: Nullable(Type.String()),
  is_superuser: Type.Boolean(),
  is_active: Type.Boolean(),
  created_at: DateTime,
});

export const UserCreate = Type.Object({
  email: Type.String({ format: 'email', maxLength: 254 }),
  password: Type.String({ minLength: 8, maxLength: 128 }),
  full_name: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  is_superuser: Type.Boolean({ default: false }),
  is_active: Type.Boolean({ default: true }),
});

/** GET /users/me also answers for a sub-user, naming its account. */
export const Me = Type.Object({
  id: Type.Integer(),
  email: Nullable(Type.String()),
  full_name: Nullable(Type.String()),
  is_superuser: Type.Boolean(),
  is_active: Type.Boolean(),
  kind: Type.Union([Type.Literal('user'), Type.Literal('sub_user')], { description: 'user = account owner; sub_user = a sub-user of owner_id' }),
  owner_id: Type.Integer(),
  username: Type.Optional(Nullable(Type.String())),
});

/** PUT /users/me/password: the caller's own password; the new one follows the rules of UserCreate. */
export const PasswordChange = Type.Object({
  current_password: Type.String({ minLength: 1, maxLength: 1024, description: 'the password the login has now' }),
  new_password: UserCreate.properties.password,
});
