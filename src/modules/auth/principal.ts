/**
 * Who is calling. An account acts for itself; a sub-user acts inside its owner's
 * account, limited to the campaigns granted to it.
 */
export type Principal =
  | {
      kind: 'user';
      userId: number;
      ownerId: number;
      isSuperuser: boolean;
      /** The API key the request came with (X-API-Key), for the audit trail; absent for tokens and sessions. */
      apiKey?: { id: number; name: string | null };
    }
  | { kind: 'sub_user'; subUserId: number; ownerId: number };

export const isAccountOwner = (p: Principal): p is Extract<Principal, { kind: 'user' }> => p.kind === 'user';
