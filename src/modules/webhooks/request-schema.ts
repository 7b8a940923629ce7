import type { FieldSchema, FieldType, PayloadSchema } from '../../extraction/extractor.ts';

/**
 * The request schema arrives in one of four forms (docs/webhooks.md, "Request schema forms") and is
 * stored as one JSON Schema. Decisions: in the example and description forms every
 * field is required (the payload always carries every field, null when unfilled);
 * an object whose values are all strings is read as field -> description (form 2),
 * any other plain object as an example (form 1).
 */
export class SchemaFormError extends Error {}

const FIELD_NAME = /^[A-Za-z0-9_]+$/;
const TYPES: FieldType[] = ['string', 'integer', 'number', 'boolean'];
const MAX_FIELDS = 200;
const LINE = /^\s*([^\s\-–—]+)\s*[-–—]\s*(.*?)\s*$/;

function checkName(name: string) {
  if (!FIELD_NAME.test(name)) throw new SchemaFormError(`field name "${name}" may contain only letters, digits and underscore`);
}

function build(properties: Record<string, FieldSchema>, required?: string[]): PayloadSchema {
  const names = Object.keys(properties);
  if (names.length === 0) throw new SchemaFormError('the schema has no fields');
  if (names.length > MAX_FIELDS) throw new SchemaFormError(`the schema has more than ${MAX_FIELDS} fields`);
  for (const name of names) checkName(name);
  return { type: 'object', properties, required: required ?? names, additionalProperties: false };
}

function fromLines(text: string): PayloadSchema {
  const properties: Record<string, FieldSchema> = {};
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const m = line.match(LINE);
    if (!m) throw new SchemaFormError(`line ${index + 1} is not "field - description": ${line.trim().slice(0, 80)}`);
    checkName(m[1]!);
    properties[m[1]!] = { type: 'string', ...(m[2] ? { description: m[2] } : {}) };
  });
  return build(properties);
}

function inferType(name: string, value: unknown): FieldSchema {
  if (value === null) return { type: ['string', 'null'] };
  if (typeof value === 'string') return { type: 'string', examples: [value] };
  if (typeof value === 'boolean') return { type: 'boolean', examples: [value] };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number', examples: [value] };
  throw new SchemaFormError(`field "${name}": nested objects and arrays are not supported (types: string, integer, number, boolean)`);
}

function fieldType(name: string, type: unknown): FieldSchema['type'] {
  if (typeof type === 'string' && TYPES.includes(type as FieldType)) return type as FieldType;
  if (Array.isArray(type) && type.length === 2 && type.includes('null')) {
    const other = type.find((t) => t !== 'null');
    if (TYPES.includes(other as FieldType)) return [other as FieldType, 'null'];
  }
  throw new SchemaFormError(`field "${name}": type must be string, integer, number, boolean, or a list of one of these and "null"`);
}

function fromJsonSchema(input: Record<string, unknown>): PayloadSchema {
  const props = input.properties;
  if (!props || typeof props !== 'object' || Array.isArray(props)) throw new SchemaFormError('"properties" must be an object');
  if (input.additionalProperties !== undefined && input.additionalProperties !== false) {
    throw new SchemaFormError('"additionalProperties" must be false: the payload carries only the schema\'s fields');
  }
  const properties: Record<string, FieldSchema> = {};
  for (const [name, raw] of Object.entries(props as Record<string, unknown>)) {
    checkName(name);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new SchemaFormError(`field "${name}" must be an object with a type`);
    const spec = raw as Record<string, unknown>;
    const field: FieldSchema = { type: fieldType(name, spec.type) };
    if (spec.description !== undefined) {
      if (typeof spec.description !== 'string') throw new SchemaFormError(`field "${name}": description must be a string`);
      field.description = spec.description;
    }
    if (spec.enum !== undefined) {
      if (!Array.isArray(spec.enum) || spec.enum.length === 0 || spec.enum.some((e) => e !== null && typeof e === 'object')) {
        throw new SchemaFormError(`field "${name}": enum must be a non-empty list of plain values`);
      }
      field.enum = spec.enum as FieldSchema['enum'];
    }
    properties[name] = field;
  }
  let required: string[] = [];
  if (input.required !== undefined) {
    if (!Array.isArray(input.required) || input.required.some((r) => typeof r !== 'string')) throw new SchemaFormError('"required" must be a list of field names');
    const unknown = (input.required as string[]).filter((r) => !(r in properties));
    if (unknown.length > 0) throw new SchemaFormError(`"required" names unknown fields: ${unknown.join(', ')}`);
    required = [...new Set(input.required as string[])];
  }
  return build(properties, required);
}

function fromObject(input: Record<string, unknown>): PayloadSchema {
  if (input.type === 'object' && 'properties' in input) return fromJsonSchema(input);
  if ('type' in input && 'properties' in input) throw new SchemaFormError('a JSON Schema must have "type": "object"');
  const entries = Object.entries(input);
  if (entries.length > 0 && entries.every(([, v]) => typeof v === 'string')) {
    const properties: Record<string, FieldSchema> = {};
    for (const [name, description] of entries) {
      checkName(name);
      properties[name] = { type: 'string', ...((description as string).trim() ? { description: description as string } : {}) };
    }
    return build(properties);
  }
  const properties: Record<string, FieldSchema> = {};
  for (const [name, value] of entries) {
    checkName(name);
    properties[name] = inferType(name, value);
  }
  return build(properties);
}

/** Normalises any accepted form; throws SchemaFormError saying why it cannot. */
export function normaliseRequestSchema(input: unknown): PayloadSchema {
  if (typeof input === 'string') {
    const text = input.trim();
    if (text === '') throw new SchemaFormError('the schema is empty');
    if (text.startsWith('{') || text.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw new SchemaFormError(`the schema looks like JSON but does not parse: ${(error as Error).message}`);
      }
      return normaliseRequestSchema(parsed);
    }
    return fromLines(text);
  }
  if (input && typeof input === 'object' && !Array.isArray(input)) return fromObject(input as Record<string, unknown>);
  throw new SchemaFormError('the schema must be a JSON object, a JSON Schema, or lines of "field - description"');
}
