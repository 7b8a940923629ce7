import type { LlmPriority } from './llm-budget.ts';

/**
 * Extraction turns a call transcript into the payload a webhook integration asked for.
 * Every driver gets the same context (the API's "Context given to the AI", README: webhook payloads) and its
 * answer is always checked against the user's schema: a value that does not fit is null.
 */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean';

export interface FieldSchema {
  type: FieldType | [FieldType, 'null'];
  description?: string;
  enum?: (string | number | boolean | null)[];
  examples?: unknown[];
}

/** The one normalised form every request-schema input is turned into. */
export interface PayloadSchema {
  type: 'object';
  properties: Record<string, FieldSchema>;
  required: string[];
  additionalProperties: false;
}

export interface TranscriptTurn {
  role: string;
  text: string;
}

/** The call fields the AI may see, exactly those the API documents. */
export interface CallContext {
  from_number: string | null;
  to_number: string | null;
  call_duration: number | null;
  start_time: string | null;
  end_time: string | null;
  call_type: string | null;
  action_status: string | null;
  status: string;
  record_url?: string;
  call_data?: Record<string, unknown>;
}

/**
 * Facts of the call row that the API's AI context leaves out. The rule-based extractor
 * reads them (with the context above) to fill fields without a model; the LLM is not
 * sent them, as the API fixes what the model sees.
 */
export interface CallFacts {
  action_status_reason: string | null;
  /** HUMAN or AI. */
  call_ended_by: string | null;
  call_ended_by_reason: string | null;
  /** The contact's own number (contacts.phone_number). */
  contact_phone: string | null;
}

export interface ExtractionInput {
  schema: PayloadSchema;
  /** Per-field rules, placeholders already substituted. */
  instructions: Record<string, string>;
  transcript: TranscriptTurn[];
  /** The contact's data fields (contact_data). */
  contact: Record<string, unknown>;
  call: CallContext;
  /** Absent when the caller has only the API's context (a facts-based rule then finds nothing). */
  facts?: CallFacts;
  signal?: AbortSignal;
  /** Told the token usage a model's server reports (a test scenario's judge counts its cost); the offline extractor reports none. */
  onUsage?: (usage: { prompt_tokens?: number; completion_tokens?: number }) => void;
  /** Its place in the LLM budget (llm-budget.ts): first (a webhook waits on it, the default) or later (call scoring). */
  priority?: LlmPriority;
}

export interface ExtractionResult {
  payload: Record<string, unknown>;
  /** Fields left null. */
  nulls: string[];
  method: string;
}

export interface Extractor {
  readonly name: string;
  extract(input: ExtractionInput): Promise<ExtractionResult>;
}

/** A failure of the extraction itself (LLM down, unusable answer): the delivery fails with it. */
export class ExtractionError extends Error {}

export const baseType = (field: FieldSchema): FieldType => (Array.isArray(field.type) ? field.type[0] : field.type);

/** Whether a value is acceptable for a field (null always is: unfillable fields are null). */
export function fits(field: FieldSchema, value: unknown): boolean {
  if (value === null) return true;
  if (field.enum && !field.enum.some((e) => e === value)) return false;
  switch (baseType(field)) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
  }
}

/** Keeps exactly the schema's fields, each a fitting value or null. */
export function repairToSchema(schema: PayloadSchema, answer: unknown, method: string): ExtractionResult {
  const source = answer && typeof answer === 'object' && !Array.isArray(answer) ? (answer as Record<string, unknown>) : {};
  const payload: Record<string, unknown> = {};
  const nulls: string[] = [];
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = source[name];
    payload[name] = value !== undefined && fits(field, value) ? value : null;
    if (payload[name] === null) nulls.push(name);
  }
  return { payload, nulls, method };
}
