/**
 * The offline text: a template with `{{contact.<field>}}`, `{{call.<field>}}` and
 * `{{campaign.<field>}}` placeholders (a value missing is an empty string, as in the call
 * templates), and the texts used when a campaign has none.
 */
const PLACEHOLDER = /\{\{\s*(contact|call|campaign)\.([A-Za-z0-9_]+)\s*\}\}/g;

export interface TextContext {
  contact: Record<string, unknown>;
  call: Record<string, unknown> | null;
  campaign: Record<string, unknown>;
}

/** Why a text template cannot be saved, or null. */
export function textTemplateProblem(text: string): string | null {
  let rest = text;
  for (const match of text.matchAll(/\{\{(.*?)\}\}/gs)) {
    if (!/^\s*(contact|call|campaign)\.[A-Za-z0-9_]+\s*$/.test(match[1]!)) {
      return `placeholder {{${match[1]}}} must be {{contact.<field>}}, {{call.<field>}} or {{campaign.<field>}}`;
    }
    rest = rest.replace(match[0], '');
  }
  if (rest.includes('{{') || rest.includes('}}')) return 'unbalanced {{ or }}: a placeholder is written {{contact.<field>}}';
  return null;
}

const asText = (v: unknown) => (v === null || v === undefined ? '' : v instanceof Date ? v.toISOString() : typeof v === 'object' ? JSON.stringify(v) : String(v));

export function fillTextTemplate(template: string, ctx: TextContext): string {
  return template
    .replace(PLACEHOLDER, (_m, scope: 'contact' | 'call' | 'campaign', field: string) => {
      const source = ctx[scope];
      return source && Object.hasOwn(source, field) ? asText(source[field]) : '';
    })
    .replace(/[ \t]+([,.!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** The campaign's texts when it has no template of its own, by purpose. */
export function defaultTemplate(purpose: 'follow_up' | 'confirmation' | 'reply' | 'manual', ctx: TextContext): string {
  const name = firstName(ctx.contact);
  const hi = name ? `Hi ${name},` : 'Hi,';
  const phone = asText(ctx.campaign['campaign_phone']);
  const back = phone ? ` Reply here or call us at ${phone}.` : ' Reply here to talk to us.';
  switch (purpose) {
    case 'confirmation':
      return `${hi} thank you for your interest in {{campaign.title}}. We will be in touch soon. Reply STOP to opt out.`;
    case 'reply':
      return `${hi} thank you for your message. Someone from {{campaign.title}} will get back to you shortly. Reply STOP to opt out.`;
    default:
      return `${hi} we tried to call you about {{campaign.title}}.${back} Reply STOP to opt out.`;
  }
}

function firstName(contact: Record<string, unknown>): string | null {
  for (const key of ['first_name', 'firstName', 'name', 'full_name']) {
    const v = contact[key];
    if (typeof v === 'string' && v.trim()) return v.trim().split(/\s+/)[0]!.slice(0, 40);
  }
  return null;
}
