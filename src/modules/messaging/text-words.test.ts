import { describe, expect, it } from 'vitest';
import { inventedFacts } from './text-writer-llm.ts';
import { defaultTemplate, fillTextTemplate, textTemplateProblem } from './text-template.ts';

describe('the words of a text', () => {
  it('fills contact, call and campaign placeholders; a missing value is empty and leaves no stray space', () => {
    const ctx = { contact: { name: 'Ada', phone_number: '+12125550100' }, call: { status: 'voicemail' }, campaign: { title: 'Solar' } };
    expect(fillTextTemplate('Hi {{contact.name}}, about {{ campaign.title }} ({{call.status}}) {{contact.missing}}.', ctx)).toBe('Hi Ada, about Solar (voicemail).');
    expect(fillTextTemplate(defaultTemplate('follow_up', { ...ctx, contact: {} }), { ...ctx, contact: {} })).toBe('Hi, we tried to call you about Solar. Reply here to talk to us. Reply STOP to opt out.');
  });

  it('refuses malformed templates with the reason', () => {
    expect(textTemplateProblem('Hi {{contact.name}} {{call.status}}')).toBeNull();
    expect(textTemplateProblem('Hi {{user.password}}')).toMatch(/must be \{\{contact/);
    expect(textTemplateProblem('Hi {{contact.name')).toMatch(/unbalanced/);
  });

  it('finds links and prices the model was not given', () => {
    const source = 'Offer a free survey. Book at https://example.com/book. The survey costs $0; panels from $4,999.';
    expect(inventedFacts('Book at example.com/book, panels from $4,999.', source)).toEqual([]);
    expect(inventedFacts('Book at https://example.com/book!', source)).toEqual([]);
    expect(inventedFacts('Visit https://cheap-solar.biz now', source)).toEqual(['https://cheap-solar.biz']);
    expect(inventedFacts('Only 3999 dollars today, 20% off', source)).toEqual(['3999 dollars', '20%']);
    expect(inventedFacts('Panels from €4.500', source)).toEqual(['€4.500']);
  });
});
