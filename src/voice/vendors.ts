import type { RawConfig } from '../config.ts';
import { retell } from './providers/retell/retell-vendor.ts';
import { twilio } from './providers/twilio/twilio-vendor.ts';
import { vapi } from './providers/vapi/vapi-vendor.ts';
import type { VendorDefinition } from './vendor-definition.ts';

/**
 * Every voice vendor, declared once: the settings, the API's schemas (voice connections,
 * assistants) and the registry read their names from here. Adding a vendor is its folder and
 * one line here. The order is the order of every enum of vendor names (the OpenAPI document's
 * included), so a new vendor goes last.
 */
export const VENDORS = { vapi, retell, twilio } as const satisfies Record<string, VendorDefinition>;

export type VendorName = keyof typeof VENDORS;

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** Every vendor's settings (their schemas), for config.ts's schema of the service's settings. */
export const VENDOR_ENV = Object.assign({}, ...Object.values(VENDORS).map((v) => v.env)) as Intersection<(typeof VENDORS)[VendorName]['env']>;
export const VENDOR_NAMES = Object.keys(VENDORS) as VendorName[];

/** The simulator, then the vendors: what VOICE_PROVIDER and an assistant's provider may name. */
export const VOICE_PROVIDER_NAMES = ['sim', ...VENDOR_NAMES] as const;
export type VoiceProviderName = (typeof VOICE_PROVIDER_NAMES)[number];

export const isVendorName = (name: string): name is VendorName => Object.hasOwn(VENDORS, name);

/** A vendor's definition, typed as the interface (VENDORS[name] is a union of the three). */
export const vendor = (name: VendorName): VendorDefinition => VENDORS[name];

/** Which of a vendor's settings are missing (empty when the service has its credentials). */
export function vendorSettingsMissing(config: RawConfig, name: VendorName): string[] {
  return vendor(name).settings.filter((key) => (config as Record<string, unknown>)[key] === undefined);
}
