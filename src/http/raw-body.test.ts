import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unstorable } from './json-body.ts';
import { formFieldCount, unstorableJsonText } from './raw-body.ts';

/** The one-pass check of a vendor's JSON text agrees with the parse-and-walk of every other JSON body. */
describe('unstorableJsonText', () => {
  it('finds exactly what unstorable finds in the parsed value', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('\u0000', '\ud800', '\udc00', '\ud83d\ude00', '\\', '"', 'u'), fc.string({ maxLength: 1 })) });
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(text, tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(fc.property(value, (v) => {
      const json = JSON.stringify(v);
      expect(unstorableJsonText(json) !== null).toBe(unstorable(JSON.parse(json)) !== null);
    }), { numRuns: 2000 });
  });

  it('reads escapes as JSON does', () => {
    expect(unstorableJsonText('{"a":"\\\\u0000"}')).toBeNull(); // a backslash, then the text u0000
    expect(unstorableJsonText('{"a":"\\u0000"}')).toMatch(/NUL/);
    expect(unstorableJsonText('{"\\u0000":1}')).toMatch(/NUL/);
    expect(unstorableJsonText('["\\ud83d\\ude00"]')).toBeNull();
    expect(unstorableJsonText('["\\ud83d"]')).toMatch(/surrogate/);
    expect(unstorableJsonText('["\\ude00\\ud83d"]')).toMatch(/surrogate/);
    expect(unstorableJsonText('["\\"[[[["]')).toBeNull();
    expect(unstorableJsonText(`${'['.repeat(64)}${']'.repeat(64)}`)).toBeNull();
    expect(unstorableJsonText(`${'[{"a":'.repeat(40)}1`)).toMatch(/nest at most 64/);
  });
});

describe('formFieldCount', () => {
  it('counts fields up to one past the limit, without parsing', () => {
    expect(formFieldCount('', 200)).toBe(0);
    expect(formFieldCount('a=1', 200)).toBe(1);
    expect(formFieldCount('a=1&b=2&c', 200)).toBe(3);
    expect(formFieldCount('a&'.repeat(100_000), 200)).toBe(201);
  });
});
