/**
 * Placeholders in an assistant's texts (system prompt, first message, voicemail message) and in
 * a campaign's prompt: `{{contact.<field>}}` and `{{campaign.<field>}}`, filled per call. The
 * rules are the webhooks' (modules/webhooks/placeholders.ts): a value missing at call time is
 * an empty string, never an error; a malformed template is refused when it is saved.
 *
 * contact.<field>: `id`, `phone_number`, `status`, then any key of the contact's contact_data.
 * campaign.<field>: `id`, `title`, `description`, `campaign_type`, `campaign_phone`, then any key of campaign_data.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g;
const NAME = /^(contact|campaign)\.[A-Za-z0-9_]+$/;

export interface TemplateContext {
  contact: Record<string, unknown>;
  campaign: Record<string, unknown>;
}

/** Why a template cannot be saved, or null: braces must pair and name contact.<field> or campaign.<field>. */
export function templateProblem(text: string): string | null {
  let rest = text;
  for (const match of text.matchAll(/\{\{(.*?)\}\}/gs)) {
    const name = match[1]!.trim();
    if (!NAME.test(name)) return `placeholder {{${match[1]}}} must be {{contact.<field>}} or {{campaign.<field>}}`;
    rest = rest.replace(match[0], '');
  }
  if (rest.includes('{{') || rest.includes('}}')) return 'unbalanced {{ or }}: a placeholder is written {{contact.<field>}} or {{campaign.<field>}}';
  return null;
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The value of one placeholder name (`contact.first_name`), '' when unknown. */
export function placeholderValue(name: string, ctx: TemplateContext): string {
  const [scope, field] = name.split('.', 2) as [string, string];
  const source = scope === 'contact' ? ctx.contact : scope === 'campaign' ? ctx.campaign : undefined;
  return source && Object.hasOwn(source, field) ? text(source[field]) : '';
}

/** Fills every placeholder; an unknown or missing one becomes ''. */
export function fillTemplate(template: string, ctx: TemplateContext): string {
  return template.replace(PLACEHOLDER, (_m, name: string) => (NAME.test(name) ? placeholderValue(name, ctx) : ''));
}

/**
 * Every value a call's templates may use, flat (`contact.name` → 'Ann'): what a vendor that
 * fills templates itself (Retell's dynamic variables, Vapi's variableValues) receives.
 */
export function templateVariables(ctx: TemplateContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const scope of ['contact', 'campaign'] as const) {
    for (const [key, value] of Object.entries(ctx[scope])) if (/^[A-Za-z0-9_]+$/.test(key)) out[`${scope}.${key}`] = text(value);
  }
  return out;
}

/**
 * A contact's and a campaign's fields as templates see them: the named columns first, then the
 * keys of their JSON data (a data key never hides a column).
 */
export function templateContext(
  contact: { id: number; phone_number: string; status?: string | null; contact_data: unknown },
  campaign: { id: number; title: string | null; description?: string | null; campaign_type?: string | null; campaign_phone?: string | null; campaign_data?: unknown },
): TemplateContext {
  const data = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const { prompt: _prompt, ...campaignData } = data(campaign.campaign_data);
  return {
    contact: { ...data(contact.contact_data), id: contact.id, phone_number: contact.phone_number, status: contact.status ?? null },
    campaign: {
      ...campaignData, id: campaign.id, title: campaign.title, description: campaign.description ?? null,
      campaign_type: campaign.campaign_type ?? null, campaign_phone: campaign.campaign_phone ?? null,
    },
  };
}
