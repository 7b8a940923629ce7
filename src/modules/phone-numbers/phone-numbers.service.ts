import type { Db } from '../../db/connection.ts';
import { conflict, forbidden, notFound } from '../../http/errors.ts';
import { normalisePhone, requirePhone } from '../../shared/phone.ts';
import type { Principal } from '../auth/principal.ts';
import { canAccessCampaign, requireCampaign } from '../campaigns/campaign-access.ts';
import * as repo from './phone-numbers.repository.ts';
import type { PhoneNumberCreate, PhoneNumberListQuery, PhoneNumberUpdate } from './phone-numbers.schemas.ts';

/** Numbers are account settings: only the account owner changes them. */
export function ownerOnly(principal: Principal) {
  if (principal.kind !== 'user') throw forbidden();
  return principal;
}

const duplicate = () => conflict('This phone number is already registered in your account');

async function guardDuplicate<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if ((error as { code?: string }).code === '23505') throw duplicate();
    throw error;
  }
}

/** 404 for an unknown id, 403 for a number of another account or (for a sub-user) of a campaign not granted. */
export async function requireVisible(db: Db, principal: Principal, id: number) {
  const row = await repo.findPhoneNumber(db, id);
  if (!row) throw notFound('Phone number');
  if (row.owner_id !== principal.ownerId) throw forbidden();
  if (principal.kind === 'sub_user') {
    const granted = row.campaign_id !== null && (await canAccessCampaign(db, principal, { id: row.campaign_id, owner_id: row.owner_id }));
    if (!granted) throw forbidden();
  }
  return row;
}

export const listPhoneNumbers = ({ db, principal, query }: { db: Db; principal: Principal; query: PhoneNumberListQuery }) =>
  repo.listPhoneNumbers(db, principal, { skip: query.skip, limit: query.limit, campaignId: query.campaign_id });

export const getPhoneNumber = ({ db, principal, id }: { db: Db; principal: Principal; id: number }) => requireVisible(db, principal, id);

export async function createPhoneNumber({ db, principal, input, defaultCountry }: { db: Db; principal: Principal; input: PhoneNumberCreate; defaultCountry: string }) {
  const owner = ownerOnly(principal);
  const phone = requirePhone(input.phone_number, defaultCountry, ['body', 'phone_number']);
  const campaignId = input.campaign_id ?? null;
  if (campaignId !== null) await requireCampaign(db, owner, campaignId);
  const id = await guardDuplicate(() =>
    repo.insertPhoneNumber(db, owner.ownerId, {
      phone_number: phone.e164,
      country_code: input.country_code?.toUpperCase() ?? phone.country,
      campaign_id: campaignId,
      provider_number_id: input.provider_number_id ?? null,
    }),
  );
  return (await repo.findPhoneNumber(db, id))!;
}

export async function updatePhoneNumber({ db, principal, id, input, defaultCountry }: { db: Db; principal: Principal; id: number; input: PhoneNumberUpdate; defaultCountry: string }) {
  const existing = await requireVisible(db, principal, id);
  const owner = ownerOnly(principal);
  const patch: Parameters<typeof repo.updatePhoneNumber>[2] = {};
  const phone = input.phone_number !== undefined ? requirePhone(input.phone_number, defaultCountry, ['body', 'phone_number']) : null;
  if (phone) patch.phone_number = phone.e164;
  if (input.country_code !== undefined) {
    patch.country_code = input.country_code?.toUpperCase() ?? (phone ?? normalisePhone(existing.phone_number, defaultCountry))?.country ?? null;
  } else if (phone && phone.e164 !== existing.phone_number) {
    patch.country_code = phone.country;
  }
  if (input.campaign_id !== undefined) {
    if (input.campaign_id !== null) await requireCampaign(db, owner, input.campaign_id);
    patch.campaign_id = input.campaign_id;
  }
  if (input.provider_number_id !== undefined) patch.provider_number_id = input.provider_number_id;
  await guardDuplicate(() => repo.updatePhoneNumber(db, id, patch));
  return (await repo.findPhoneNumber(db, id))!;
}

export async function deletePhoneNumber({ db, principal, id }: { db: Db; principal: Principal; id: number }) {
  await requireVisible(db, principal, id);
  ownerOnly(principal);
  await repo.deletePhoneNumber(db, id);
  return { message: 'Phone number deleted' };
}
