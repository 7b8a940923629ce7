import { describe, expect, it } from 'vitest';
import { createRedactor, redact, redactDeep, UNREADABLE_MARKER } from '../src/modules/privacy/redaction/redaction.ts';
import { REDACTION_CATEGORIES, type RedactionCategory } from '../src/modules/privacy/redaction/redaction.types.ts';
import { buildLabelledSet } from './fixtures/redaction/labelled-set.ts';

const all = { categories: REDACTION_CATEGORIES };
const only = (category: RedactionCategory, keepPhones?: string[]) => ({ categories: [category], keepPhones });

describe('cards', () => {
  it('replaces a Luhn-valid card of a known brand, grouped, dashed or compact, with [CARD]', () => {
    expect(redact('card 4111 1111 1111 1111 thanks', only('card'))).toEqual({ text: 'card [CARD] thanks', found: { card: 1 } });
    expect(redact('it is 5555-5555-5555-4444.', only('card')).text).toBe('it is [CARD].');
    expect(redact('amex 378282246310005 ok', only('card')).text).toBe('amex [CARD] ok');
  });

  it('leaves a number that fails Luhn, or starts with no card prefix, as it is', () => {
    expect(redact('card 4111 1111 1111 1112', only('card')).text).toBe('card 4111 1111 1111 1112');
    // Luhn-valid but 8 is no issuer's prefix: an order number.
    expect(redact('order 8000 0000 0000 0002', only('card')).text).toBe('order 8000 0000 0000 0002');
  });

  it('reads cards spoken digit by digit in English, Spanish, French and German', () => {
    const spoken = [
      'four one one one one one one one one one one one one one one one',
      'cuatro uno uno uno, uno uno uno uno, uno uno uno uno, uno uno uno uno',
      'quatre un un un un un un un un un un un un un un un',
      'vier eins eins eins eins eins eins eins eins eins eins eins eins eins eins eins',
    ];
    for (const digits of spoken) expect(redact(`number ${digits}, thanks`, only('card')).text).toBe('number [CARD], thanks');
  });

  it('does not take a card out of the middle of a tracking number', () => {
    // 5544 3771 7925 7468 is Luhn-valid with a Mastercard prefix; here it is a parcel's number.
    expect(redact('suivi 9400 5544 3771 7925 7468 46', only('card')).found).toEqual({});
  });

  it('finds the card whole when its expiry follows in the same run of digits', () => {
    expect(redact('4242 4242 4242 4242 12 26', only('card')).text).toBe('[CARD] 12 26');
  });
});

describe('IBANs', () => {
  it('replaces a valid IBAN, grouped or compact, in any case, and nothing after it', () => {
    expect(redact('IBAN ES91 2100 0418 4502 0005 1332 and thanks', only('iban')).text).toBe('IBAN [IBAN] and thanks');
    expect(redact('iban de89370400440532013000.', only('iban')).text).toBe('iban [IBAN].');
    expect(redact('GB29 NWBK 6016 1331 9268 19', only('iban')).text).toBe('[IBAN]');
  });

  it('leaves an IBAN whose check digits do not match', () => {
    expect(redact('IBAN ES91 2100 0418 4502 0005 1333', only('iban')).found).toEqual({});
  });
});

describe('SSNs', () => {
  it('replaces a dashed SSN anywhere, and other forms only near an SSN word', () => {
    expect(redact('it is 123-45-6789', only('ssn')).text).toBe('it is [SSN]');
    expect(redact('my social security number is 123 45 6789', only('ssn')).text).toBe('my social security number is [SSN]');
    expect(redact('SSN one two three four five six seven eight nine', only('ssn')).text).toBe('SSN [SSN]');
    expect(redact('the code is 123 45 6789', only('ssn')).text).toBe('the code is 123 45 6789');
  });

  it('leaves the numbers the SSA never issues', () => {
    for (const unissued of ['000-12-3456', '666-12-3456', '912-34-5678', '123-00-4567', '123-45-0000']) {
      expect(redact(`SSN ${unissued}`, only('ssn')).found).toEqual({});
    }
  });
});

describe('other national ids, counted as ssn', () => {
  it('replaces a Spanish DNI or NIE whose control letter matches, and leaves one whose letter does not', () => {
    expect(redact('mi DNI es 12345678Z y el NIE X1234567L', only('ssn')).text).toBe('mi DNI es [SSN] y el NIE [SSN]');
    expect(redact('mi DNI es 12345678A', only('ssn')).found).toEqual({});
  });

  it('replaces a French NIR whose key matches, grouped or compact, and leaves one whose key does not', () => {
    expect(redact('sécu 1 85 05 78 006 084 91 merci', only('ssn')).text).toBe('sécu [SSN] merci');
    expect(redact('sécu 185057800608491', only('ssn')).text).toBe('sécu [SSN]');
    expect(redact('sécu 1 85 05 78 006 084 36', only('ssn')).found).toEqual({});
  });
});

describe('e-mails', () => {
  it('replaces written and spoken addresses', () => {
    expect(redact('mail ana.lopez@gmail.com now', only('email')).text).toBe('mail [EMAIL] now');
    expect(redact('es ana punto lopez arroba gmail punto com, gracias', only('email')).text).toBe('es [EMAIL], gracias');
    // A local part said in several words is taken whole, not from its last word.
    expect(redact("it's j smith 42 at hotmail dot com", only('email')).text).toBe("it's [EMAIL]");
  });
});

describe('phones', () => {
  it('replaces other numbers but never the contact\'s own', () => {
    const options = only('phone', ['+12125550100']);
    expect(redact('call (212) 555-0100 or 617-555-0148', options).text).toBe('call (212) 555-0100 or [PHONE]');
    expect(redact('my number +33 6 12 34 56 78', options).text).toBe('my number [PHONE]');
  });

  it('takes the default country from the contact\'s number', () => {
    expect(redact('llámame al 699 88 77 66', only('phone', ['+34612345678'])).text).toBe('llámame al [PHONE]');
    expect(redact('appelez le 07 98 76 54 32', only('phone', ['+33612345678'])).text).toBe('appelez le [PHONE]');
  });

  it('leaves numbers after a look-alike cue, dates, SSN and card shapes, and the rest of a mistyped IBAN', () => {
    expect(redact('order number 2125550123 shipped on 21.07.2025', only('phone')).found).toEqual({});
    expect(redact('confirmation code is 7373987663', only('phone')).found).toEqual({});
    expect(redact('Karte 4953 4596 5144 9472', only('phone', ['+4915112345678'])).found).toEqual({});
    expect(redact('IBAN NL08 RABO 7351 6864 71', only('phone', ['+4915112345678'])).found).toEqual({});
  });
});

describe('addresses, dates of birth and names', () => {
  it('replaces a street address in each language', () => {
    const options = only('address');
    expect(redact('I live at 221B Baker Street, Apt 4.', options).text).toBe('I live at [ADDRESS].');
    expect(redact("J'habite au 12 bis rue de la Paix, 75002 Paris.", options).text).toBe("J'habite au [ADDRESS].");
    expect(redact('Vivo en calle Mayor 12, 3º B.', options).text).toBe('Vivo en [ADDRESS].');
    expect(redact('Ich wohne in der Hauptstraße 5.', options).text).toBe('Ich wohne in der [ADDRESS].');
    expect(redact('I have 3 kids down the street.', options).found).toEqual({});
  });

  it('replaces a date only when it is a birth date', () => {
    const options = only('dob');
    expect(redact('I was born on March 3, 1985. The appointment is March 5, 2025.', options).text).toBe(
      'I was born on [DOB]. The appointment is March 5, 2025.',
    );
    expect(redact('Nací el 3 de marzo de 1985', options).text).toBe('Nací el [DOB]');
    expect(redact('Je suis né le 3 mars 1985', options).text).toBe('Je suis né le [DOB]');
    expect(redact('Ich bin am 3. März 1985 in Köln geboren', options).text).toBe('Ich bin am [DOB] in Köln geboren');
  });

  it('replaces names only after a self-introduction, and only when asked for', () => {
    expect(redact('my name is John Smith and I', only('name')).text).toBe('my name is [NAME] and I');
    expect(redact('je m\'appelle Marie de la Cruz et', only('name')).text).toBe("je m'appelle [NAME] et");
    expect(redact('my name is John Smith', { categories: ['card', 'email'] }).text).toBe('my name is John Smith');
  });
});

describe('redactDeep', () => {
  it('redacts strings inside objects and arrays, leaves keys and other values, and copies', () => {
    const payload = { 'ana@example.com': 1, notes: ['card 4111 1111 1111 1111', { deeper: 'mail ana@example.com', n: 4 }], ok: true, none: null };
    const result = redactDeep(payload, all);
    expect(result.value).toEqual({ 'ana@example.com': 1, notes: ['card [CARD]', { deeper: 'mail [EMAIL]', n: 4 }], ok: true, none: null });
    expect(result.found).toEqual({ card: 1, email: 1 });
    expect(payload.notes[0]).toBe('card 4111 1111 1111 1111');
  });

  it('replaces what lies deeper than maxDepth, and cycles, instead of keeping it unread', () => {
    const deep = { a: { b: { c: 'ana@example.com' } } };
    expect(createRedactor({ ...all, maxDepth: 2 }).redactDeep(deep).value).toEqual({ a: { b: UNREADABLE_MARKER } });
    const cyclic: Record<string, unknown> = { mail: 'ana@example.com' };
    cyclic.self = cyclic;
    expect(redactDeep(cyclic, all).value).toEqual({ mail: '[EMAIL]', self: UNREADABLE_MARKER });
  });
});

describe('nothing partial is left', () => {
  it('after redaction, no run of 4 digits of a planted number, and no planted value, remains in the text', () => {
    for (const transcript of buildLabelledSet()) {
      const { text } = createRedactor({ ...all, keepPhones: transcript.keepPhones }).redact(transcript.text);
      for (const value of transcript.values) {
        // A value the rules miss is counted by the quality test; here: what was redacted went whole.
        const wasRedacted = !text.includes(value.value);
        if (!wasRedacted) continue;
        for (const digits of value.value.match(/\d{4,}/g) ?? []) {
          const elsewhere = transcript.text.split(value.value).join('').includes(digits);
          if (!elsewhere) expect(text, `${transcript.id}: ${value.value}`).not.toContain(digits);
        }
      }
    }
  });
});
